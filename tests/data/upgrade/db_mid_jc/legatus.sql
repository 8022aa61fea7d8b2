PRAGMA user_version=0;
BEGIN TRANSACTION;
CREATE TABLE actions(session INTEGER NOT NULL, seq INTEGER NOT NULL, kind TEXT NOT NULL,
                                   line TEXT NOT NULL, sentence TEXT NOT NULL, crc INTEGER NOT NULL,
                                   PRIMARY KEY(session, seq));
INSERT INTO "actions" VALUES(1,1,'do','add attacker c_leg8','{"t": "{} ({}, {}) joins the attacker ({}).", "a": [{"t": "Legio {}", "a": ["8"]}, "C3", "III", {"t": "Caesar"}], "o": "jc"}',1144633323);
INSERT INTO "actions" VALUES(1,2,'do','add attacker c_caesar','{"t": "{} ({}, {}) joins the attacker ({}).", "a": [{"t": "Caesar"}, "A3", "III", {"t": "Caesar"}], "o": "jc"}',3913911990);
INSERT INTO "actions" VALUES(1,3,'do','add defender p_leg5','{"t": "{} ({}, {}) joins the defender ({}).", "a": [{"t": "Legio {}", "a": ["5"]}, "C2", "III", {"t": "Pompey"}], "o": "jc"}',2981080983);
INSERT INTO "actions" VALUES(1,4,'do','add defender p_pompeius','{"t": "{} ({}, {}) joins the defender ({}).", "a": [{"t": "Pompeius (Pompey)"}, "B3", "III", {"t": "Pompey"}], "o": "jc"}',1508345022);
INSERT INTO "actions" VALUES(1,5,'do','start','{"t": "Battle {} begins.", "a": [1], "o": "jc"}',570476556);
INSERT INTO "actions" VALUES(1,6,'do','auto','{"t": "{} ({}).", "a": [{"t": "{}: fires {}, {n} hit", "a": [{"t": "Round {} {} ({}, {})", "a": [1, {"t": "Caesar"}, "A3", "III"]}, "3 2 4"], "k": {"n": 2}, "p": "{}: fires {}, {n} hits"}, {"l": [{"t": "{} {}→{}", "a": [{"t": "Legio {}", "a": ["5"]}, "III", "II"]}, {"t": "{} {}→{}", "a": [{"t": "Pompeius (Pompey)"}, "III", "II"]}]}], "o": "jc"}',3496295930);
INSERT INTO "actions" VALUES(1,7,'do','auto','{"t": "{} ({}).", "a": [{"t": "{}: fires {}, {n} hit", "a": [{"t": "Round {} {} ({}, {})", "a": [1, {"t": "Pompeius (Pompey)"}, "B3", "II"]}, "1 2"], "k": {"n": 2}, "p": "{}: fires {}, {n} hits"}, {"l": [{"t": "{} {}→{}", "a": [{"t": "Legio {}", "a": ["8"]}, "III", "II"]}, {"t": "{} {}→{}", "a": [{"t": "Caesar"}, "III", "II"]}]}], "o": "jc"}',4120797008);
CREATE TABLE checkpoints(session INTEGER NOT NULL, depth INTEGER NOT NULL, top INTEGER NOT NULL,
                                       state TEXT NOT NULL, crc INTEGER NOT NULL, PRIMARY KEY(session, depth, top));
CREATE TABLE damaged(id INTEGER PRIMARY KEY, what TEXT NOT NULL, data TEXT NOT NULL, reason TEXT NOT NULL);
CREATE TABLE history(id INTEGER PRIMARY KEY, sid TEXT NOT NULL, part TEXT NOT NULL,
                                   game TEXT NOT NULL, depth INTEGER NOT NULL, sealed INTEGER NOT NULL,
                                   record TEXT NOT NULL, crc INTEGER NOT NULL, UNIQUE(sid, part));
CREATE TABLE history_started(sid TEXT PRIMARY KEY, started TEXT NOT NULL);
INSERT INTO "history_started" VALUES('9631906ff4c23b7e','2026-11-27T11:59:49Z~');
CREATE TABLE sessions(id INTEGER PRIMARY KEY, header TEXT NOT NULL, current INTEGER NOT NULL,
                                    ended REAL, crc INTEGER NOT NULL);
INSERT INTO "sessions" VALUES(1,'{"game": "jc-battle", "line": "new jc-battle seed=21", "seed": 21, "sid": "9631906ff4c23b7e", "v": 1}',1,NULL,1525803006);
CREATE TABLE settings(key TEXT PRIMARY KEY, value TEXT NOT NULL, crc INTEGER NOT NULL);
INSERT INTO "settings" VALUES('language','"en"',562496682);
COMMIT;
