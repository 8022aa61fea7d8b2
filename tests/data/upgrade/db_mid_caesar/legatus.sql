PRAGMA user_version=2;
BEGIN TRANSACTION;
CREATE TABLE actions(session INTEGER NOT NULL, seq INTEGER NOT NULL, kind TEXT NOT NULL,
                                   line TEXT NOT NULL, sentence TEXT NOT NULL, crc INTEGER NOT NULL,
                                   PRIMARY KEY(session, seq));
INSERT INTO "actions" VALUES(1,1,'do','crassus','{"t": "Crassus: Tile {} — {}.", "a": ["C", {"t": "{}; {}", "a": [{"t": "{}; {}", "a": [{"t": "drew {}", "a": [{"l": [{"t": "{} {}/{}", "a": [{"t": "ship"}, 4, 2]}, {"t": "{} {}/{}", "a": [{"t": "wild"}, 3, 1]}]}]}, {"t": "placed {} on {}, {} toward {} ({} {})", "a": [{"t": "{} {}/{}", "a": [{"t": "shield"}, 6, 0]}, {"t": "{}–{}", "a": [{"t": "Sardinia"}, {"t": "Italia"}]}, 6, {"t": "Italia"}, "S-14", {"t": "Centre"}]}]}, {"t": "placed {} on {}, {} toward {} ({} {})", "a": [{"t": "{} {}/{}", "a": [{"t": "ship"}, 5, 1]}, {"t": "{}–{}", "a": [{"t": "Sardinia"}, {"t": "Sicilia"}]}, 5, {"t": "Sardinia"}, "S-12", {"t": "Reinforce"}]}]}], "o": "caesar"}',3604709256);
INSERT INTO "actions" VALUES(1,2,'do','play AC-CR shield:5/1 AC','{"t": "{}.", "a": [{"t": "You: placed {} on {}, {} toward {}", "a": [{"t": "{} {}/{}", "a": [{"t": "shield"}, 5, 1]}, {"t": "{}–{}", "a": [{"t": "Achaea"}, {"t": "Creta"}]}, 5, {"t": "Achaea"}]}], "o": "caesar"}',2800439431);
INSERT INTO "actions" VALUES(1,3,'do','draw','{"t": "You drew {}.", "a": [{"t": "{} {}/{}", "a": [{"t": "wild"}, 2, 2]}], "o": "caesar"}',1929074870);
INSERT INTO "actions" VALUES(1,4,'do','crassus','{"t": "Crassus: Tile {} — {}.", "a": ["A", {"t": "{}; {}", "a": [{"t": "{}; {}", "a": [{"t": "drew {}", "a": [{"l": [{"t": "{} {}/{}", "a": [{"t": "sword"}, 5, 1]}, {"t": "{} {}/{}", "a": [{"t": "wild"}, 4, 0]}]}]}, {"t": "placed {} on {}, {} toward {} ({} {})", "a": [{"t": "{} {}/{}", "a": [{"t": "sword"}, 5, 1]}, {"t": "{}–{}", "a": [{"t": "Achaea"}, {"t": "Macedonia"}]}, 5, {"t": "Achaea"}, "S-11", {"t": "Defend"}]}]}, {"t": "returned {} to his bag", "a": [{"l": [{"t": "{} {}/{}", "a": [{"t": "shield"}, 5, 1]}]}]}]}], "o": "caesar"}',1851086394);
INSERT INTO "actions" VALUES(1,5,'do','play AF-AC wild:2/2 AF','{"t": "{}.", "a": [{"t": "You: placed {} on {}, {} toward {}", "a": [{"t": "{} {}/{}", "a": [{"t": "wild"}, 2, 2]}, {"t": "{}–{}", "a": [{"t": "Africa"}, {"t": "Achaea"}]}, 2, {"t": "Africa"}]}], "o": "caesar"}',4095919110);
CREATE TABLE checkpoints(session INTEGER NOT NULL, depth INTEGER NOT NULL, top INTEGER NOT NULL,
                                       state TEXT NOT NULL, crc INTEGER NOT NULL, PRIMARY KEY(session, depth, top));
CREATE TABLE damaged(id INTEGER PRIMARY KEY, what TEXT NOT NULL, data TEXT NOT NULL, reason TEXT NOT NULL);
CREATE TABLE fair(sid TEXT PRIMARY KEY, data TEXT NOT NULL, crc INTEGER NOT NULL);
CREATE TABLE history(id INTEGER PRIMARY KEY, sid TEXT NOT NULL, part TEXT NOT NULL,
                                   game TEXT NOT NULL, depth INTEGER NOT NULL, sealed INTEGER NOT NULL,
                                   record TEXT NOT NULL, crc INTEGER NOT NULL, UNIQUE(sid, part));
CREATE TABLE history_started(sid TEXT PRIMARY KEY, started TEXT NOT NULL, crc INTEGER NOT NULL DEFAULT 0);
INSERT INTO "history_started" VALUES('fa080ce9c19d37db','2026-11-27T11:45:13Z~',3324518275);
CREATE TABLE players(name TEXT PRIMARY KEY, data TEXT NOT NULL, crc INTEGER NOT NULL);
INSERT INTO "players" VALUES('Анна','{"id":"анна","seen":1,"was":[]}',314685537);
CREATE TABLE sessions(id INTEGER PRIMARY KEY, header TEXT NOT NULL, current INTEGER NOT NULL,
                                    ended REAL, crc INTEGER NOT NULL);
INSERT INTO "sessions" VALUES(1,'{"game": "caesar-solo", "line": "new caesar-solo seed=23 people=caesar:Анна edition=uk", "seed": 23, "sid": "fa080ce9c19d37db", "v": 2}',1,NULL,121491089);
CREATE TABLE settings(key TEXT PRIMARY KEY, value TEXT NOT NULL, crc INTEGER NOT NULL);
INSERT INTO "settings" VALUES('language','"uk"',1087787935);
COMMIT;
