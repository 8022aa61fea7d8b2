PRAGMA user_version=2;
BEGIN TRANSACTION;
CREATE TABLE actions(session INTEGER NOT NULL, seq INTEGER NOT NULL, kind TEXT NOT NULL,
                                   line TEXT NOT NULL, sentence TEXT NOT NULL, crc INTEGER NOT NULL,
                                   PRIMARY KEY(session, seq));
INSERT INTO "actions" VALUES(1,1,'do','draw 3','{"t": "Drew {} from the bag.", "a": [{"l": ["gold", "silver", "bronze"]}]}',3913757449);
INSERT INTO "actions" VALUES(1,2,'do','card 2','{"t": "Drew card {}.", "a": [{"l": ["a", "a"]}], "k": {"n": 2}, "p": "Drew cards {}."}',908758242);
INSERT INTO "actions" VALUES(1,3,'do','roll 2d6','{"t": "Rolled {}: {} = {}.", "a": ["2d6", {"l": [4, 5]}, 9]}',2361528865);
CREATE TABLE checkpoints(session INTEGER NOT NULL, depth INTEGER NOT NULL, top INTEGER NOT NULL,
                                       state TEXT NOT NULL, crc INTEGER NOT NULL, PRIMARY KEY(session, depth, top));
CREATE TABLE damaged(id INTEGER PRIMARY KEY, what TEXT NOT NULL, data TEXT NOT NULL, reason TEXT NOT NULL);
CREATE TABLE fair(sid TEXT PRIMARY KEY, data TEXT NOT NULL, crc INTEGER NOT NULL);
CREATE TABLE history(id INTEGER PRIMARY KEY, sid TEXT NOT NULL, part TEXT NOT NULL,
                                   game TEXT NOT NULL, depth INTEGER NOT NULL, sealed INTEGER NOT NULL,
                                   record TEXT NOT NULL, crc INTEGER NOT NULL, UNIQUE(sid, part));
CREATE TABLE history_started(sid TEXT PRIMARY KEY, started TEXT NOT NULL, crc INTEGER NOT NULL DEFAULT 0);
INSERT INTO "history_started" VALUES('266fa6ef4b15f6c1','2026-11-27T11:59:49Z~',2269808191);
CREATE TABLE players(name TEXT PRIMARY KEY, data TEXT NOT NULL, crc INTEGER NOT NULL);
CREATE TABLE sessions(id INTEGER PRIMARY KEY, header TEXT NOT NULL, current INTEGER NOT NULL,
                                    ended REAL, crc INTEGER NOT NULL);
INSERT INTO "sessions" VALUES(1,'{"game": "bag", "line": "new bag items=gold*3,silver*2,bronze*4 cards=a*3,b*3 seed=22", "seed": 22, "sid": "266fa6ef4b15f6c1", "v": 2}',1,NULL,436730973);
CREATE TABLE settings(key TEXT PRIMARY KEY, value TEXT NOT NULL, crc INTEGER NOT NULL);
INSERT INTO "settings" VALUES('language','"ru"',2446883525);
COMMIT;
