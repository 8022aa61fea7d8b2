PRAGMA user_version=0;
BEGIN TRANSACTION;
CREATE TABLE actions(session INTEGER NOT NULL, seq INTEGER NOT NULL, kind TEXT NOT NULL,
                                   line TEXT NOT NULL, sentence TEXT NOT NULL, crc INTEGER NOT NULL,
                                   PRIMARY KEY(session, seq));
INSERT INTO "actions" VALUES(1,1,'do','event','{"t": "Round {}: event {} ({}); {} plays first, {}.", "a": [1, "Event 6", "ccw90", "Анна", {"t": "counterclockwise"}], "o": "glory"}',1790602843);
INSERT INTO "actions" VALUES(1,2,'do','end-round','{"t": "Round {} ends: the board turns {}° {}; round {}.", "a": [1, 90, {"t": "counter-clockwise"}, 2], "o": "glory"}',2951416837);
INSERT INTO "actions" VALUES(1,3,'do','event','{"t": "Round {}: event {} ({}); {} plays first, {}.", "a": [2, "Event 11", "cw180", "Анна", {"t": "clockwise"}], "o": "glory"}',2177311260);
INSERT INTO "actions" VALUES(1,4,'do','fame Анна +4','{"t": "{} {} fame: {} -> {}{}.{}", "a": ["Анна", "+4", 1, 5, "", {"t": " {}: +1 supporter each.", "a": [{"t": "{} passes milestone {} (space {})", "a": ["Анна", 5, 5]}]}], "o": "glory"}',4107006792);
CREATE TABLE checkpoints(session INTEGER NOT NULL, depth INTEGER NOT NULL, top INTEGER NOT NULL,
                                       state TEXT NOT NULL, crc INTEGER NOT NULL, PRIMARY KEY(session, depth, top));
CREATE TABLE damaged(id INTEGER PRIMARY KEY, what TEXT NOT NULL, data TEXT NOT NULL, reason TEXT NOT NULL);
CREATE TABLE history(id INTEGER PRIMARY KEY, sid TEXT NOT NULL, part TEXT NOT NULL,
                                   game TEXT NOT NULL, depth INTEGER NOT NULL, sealed INTEGER NOT NULL,
                                   record TEXT NOT NULL, crc INTEGER NOT NULL, UNIQUE(sid, part));
CREATE TABLE history_started(sid TEXT PRIMARY KEY, started TEXT NOT NULL);
INSERT INTO "history_started" VALUES('cb1ba13632923d11','2026-11-27T11:59:51Z~');
CREATE TABLE sessions(id INTEGER PRIMARY KEY, header TEXT NOT NULL, current INTEGER NOT NULL,
                                    ended REAL, crc INTEGER NOT NULL);
INSERT INTO "sessions" VALUES(1,'{"game": "glory", "line": "new glory players=Анна,Борис seed=24", "seed": 24, "sid": "cb1ba13632923d11", "v": 1}',1,NULL,2682231952);
CREATE TABLE settings(key TEXT PRIMARY KEY, value TEXT NOT NULL, crc INTEGER NOT NULL);
INSERT INTO "settings" VALUES('language','"en"',562496682);
COMMIT;
