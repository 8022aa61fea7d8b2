PRAGMA user_version=2;
BEGIN TRANSACTION;
CREATE TABLE actions(session INTEGER NOT NULL, seq INTEGER NOT NULL, kind TEXT NOT NULL,
                                   line TEXT NOT NULL, sentence TEXT NOT NULL, crc INTEGER NOT NULL,
                                   PRIMARY KEY(session, seq));
INSERT INTO "actions" VALUES(1,1,'do','crassus','{"t": "Crassus: Tile {} — {}.", "a": ["В", {"t": "{}; {}", "a": [{"t": "{}; {}", "a": [{"t": "drew {}", "a": [{"l": [{"t": "{} {}/{}", "a": [{"t": "ship"}, 4, 2]}, {"t": "{} {}/{}", "a": [{"t": "wild"}, 3, 1]}]}]}, {"t": "placed {} on {}, {} toward {} ({} {})", "a": [{"t": "{} {}/{}", "a": [{"t": "shield"}, 6, 0]}, {"t": "{}–{}", "a": [{"t": "Sardinia"}, {"t": "Italia"}]}, 6, {"t": "Italia"}, "S-14", {"t": "Centre"}]}]}, {"t": "placed {} on {}, {} toward {} ({} {})", "a": [{"t": "{} {}/{}", "a": [{"t": "ship"}, 5, 1]}, {"t": "{}–{}", "a": [{"t": "Sardinia"}, {"t": "Sicilia"}]}, 5, {"t": "Sardinia"}, "S-12", {"t": "Reinforce"}]}]}], "o": "caesar"}',3574840085);
INSERT INTO "actions" VALUES(1,2,'do','play HU-HC shield:5/1 HU','{"t": "{}.", "a": [{"t": "You: placed {} on {}, {} toward {}", "a": [{"t": "{} {}/{}", "a": [{"t": "shield"}, 5, 1]}, {"t": "{}–{}", "a": [{"t": "Hispania Ulterior"}, {"t": "Hispania Citerior"}]}, 5, {"t": "Hispania Ulterior"}]}], "o": "caesar"}',2123836080);
INSERT INTO "actions" VALUES(1,3,'undo','','',1197870613);
INSERT INTO "actions" VALUES(1,4,'do','play HU-HC shield:5/1 HU','{"t": "{}.", "a": [{"t": "You: placed {} on {}, {} toward {}", "a": [{"t": "{} {}/{}", "a": [{"t": "shield"}, 5, 1]}, {"t": "{}–{}", "a": [{"t": "Hispania Ulterior"}, {"t": "Hispania Citerior"}]}, 5, {"t": "Hispania Ulterior"}]}], "o": "caesar"}',1072963430);
INSERT INTO "actions" VALUES(1,5,'do','draw','{"t": "You drew {}.", "a": [{"t": "{} {}/{}", "a": [{"t": "wild"}, 2, 2]}], "o": "caesar"}',2496317881);
INSERT INTO "actions" VALUES(1,6,'do','crassus','{"t": "Crassus: Tile {} — {}.", "a": ["А", {"t": "{}; {}", "a": [{"t": "{}; {}", "a": [{"t": "{}; {}", "a": [{"t": "{}; {}", "a": [{"t": "drew {}", "a": [{"l": [{"t": "{} {}/{}", "a": [{"t": "sword"}, 5, 1]}, {"t": "{} {}/{}", "a": [{"t": "wild"}, 4, 0]}]}]}, {"t": "placed {} on {}, {} toward {} ({} {})", "a": [{"t": "{} {}/{}", "a": [{"t": "sword"}, 5, 1]}, {"t": "{}–{}", "a": [{"t": "Hispania Citerior"}, {"t": "Gallia"}]}, 1, {"t": "Hispania Citerior"}, "S-9", {"t": "Capture"}]}]}, {"t": "{} closed, you {}–{} Crassus: Crassus controls it", "a": [{"t": "Hispania Citerior"}, 1, 1]}]}, {"t": "Senate: {n} control marker under the Senate", "k": {"n": 1}, "p": "Senate: {n} control markers under the Senate"}]}, {"t": "returned {} to his bag", "a": [{"l": [{"t": "{} {}/{}", "a": [{"t": "shield"}, 5, 1]}]}]}]}], "o": "caesar"}',3532748492);
INSERT INTO "actions" VALUES(1,7,'do','play HU-MT wild:2/2 HU','{"t": "{}.", "a": [{"t": "{}; {}", "a": [{"t": "{}; {}", "a": [{"t": "You: placed {} on {}, {} toward {}", "a": [{"t": "{} {}/{}", "a": [{"t": "wild"}, 2, 2]}, {"t": "{}–{}", "a": [{"t": "Hispania Ulterior"}, {"t": "Mauretania"}]}, 2, {"t": "Hispania Ulterior"}]}, {"t": "{} closed, you {}–{} Crassus: you control it", "a": [{"t": "Hispania Ulterior"}, 7, 0]}]}, {"t": "Senate: {n} control marker under the Senate", "k": {"n": 1}, "p": "Senate: {n} control markers under the Senate"}]}], "o": "caesar"}',1213979916);
INSERT INTO "actions" VALUES(1,8,'undo','','',436998723);
INSERT INTO "actions" VALUES(1,9,'do','play HU-MT wild:2/2 HU','{"t": "{}.", "a": [{"t": "{}; {}", "a": [{"t": "{}; {}", "a": [{"t": "You: placed {} on {}, {} toward {}", "a": [{"t": "{} {}/{}", "a": [{"t": "wild"}, 2, 2]}, {"t": "{}–{}", "a": [{"t": "Hispania Ulterior"}, {"t": "Mauretania"}]}, 2, {"t": "Hispania Ulterior"}]}, {"t": "{} closed, you {}–{} Crassus: you control it", "a": [{"t": "Hispania Ulterior"}, 7, 0]}]}, {"t": "Senate: {n} control marker under the Senate", "k": {"n": 1}, "p": "Senate: {n} control markers under the Senate"}]}], "o": "caesar"}',3573149583);
CREATE TABLE checkpoints(session INTEGER NOT NULL, depth INTEGER NOT NULL, top INTEGER NOT NULL,
                                       state TEXT NOT NULL, crc INTEGER NOT NULL, PRIMARY KEY(session, depth, top));
CREATE TABLE damaged(id INTEGER PRIMARY KEY, what TEXT NOT NULL, data TEXT NOT NULL, reason TEXT NOT NULL);
CREATE TABLE fair(sid TEXT PRIMARY KEY, data TEXT NOT NULL, crc INTEGER NOT NULL);
CREATE TABLE history(id INTEGER PRIMARY KEY, sid TEXT NOT NULL, part TEXT NOT NULL,
                                   game TEXT NOT NULL, depth INTEGER NOT NULL, sealed INTEGER NOT NULL,
                                   record TEXT NOT NULL, crc INTEGER NOT NULL, UNIQUE(sid, part));
CREATE TABLE history_started(sid TEXT PRIMARY KEY, started TEXT NOT NULL, crc INTEGER NOT NULL DEFAULT 0);
INSERT INTO "history_started" VALUES('a96b96fbffae2216','2026-11-27T11:59:50Z~',692579203);
CREATE TABLE players(name TEXT PRIMARY KEY, data TEXT NOT NULL, crc INTEGER NOT NULL);
INSERT INTO "players" VALUES('Анна','{"id":"анна","seen":1,"was":[]}',314685537);
CREATE TABLE sessions(id INTEGER PRIMARY KEY, header TEXT NOT NULL, current INTEGER NOT NULL,
                                    ended REAL, crc INTEGER NOT NULL);
INSERT INTO "sessions" VALUES(1,'{"game": "caesar-solo", "line": "new caesar-solo seed=23 people=caesar:Анна edition=ru", "seed": 23, "sid": "a96b96fbffae2216", "v": 2}',1,NULL,1108327288);
CREATE TABLE settings(key TEXT PRIMARY KEY, value TEXT NOT NULL, crc INTEGER NOT NULL);
INSERT INTO "settings" VALUES('language','"ru"',2446883525);
COMMIT;
