PRAGMA user_version=0;
BEGIN TRANSACTION;
CREATE TABLE actions(session INTEGER NOT NULL, seq INTEGER NOT NULL, kind TEXT NOT NULL,
                                   line TEXT NOT NULL, sentence TEXT NOT NULL, crc INTEGER NOT NULL,
                                   PRIMARY KEY(session, seq));
INSERT INTO "actions" VALUES(1,1,'do','add attacker c_leg8','{"t": "{} ({}, {}) joins the attacker ({}).", "a": [{"t": "Legio {}", "a": ["8"]}, "C3", "III", {"t": "Caesar"}], "o": "jc"}',1144633323);
INSERT INTO "actions" VALUES(1,2,'do','add defender p_leg5','{"t": "{} ({}, {}) joins the defender ({}).", "a": [{"t": "Legio {}", "a": ["5"]}, "C2", "III", {"t": "Pompey"}], "o": "jc"}',2701592489);
INSERT INTO "actions" VALUES(1,3,'do','fight','{"t": "Battle {} fought to the end: {}.", "a": [1, {"t": "the attacker wins"}], "o": "jc"}',1669116626);
INSERT INTO "actions" VALUES(1,4,'do','next-battle attacker=pompey','{"t": "Battle {}: {} attacks.", "a": [2, {"t": "Pompey"}], "o": "jc"}',277821342);
INSERT INTO "actions" VALUES(1,5,'do','add attacker p_leg1','{"t": "{} ({}, {}) joins the attacker ({}).", "a": [{"t": "Legio {}", "a": ["1"]}, "C2", "IV", {"t": "Pompey"}], "o": "jc"}',4239767260);
INSERT INTO "actions" VALUES(1,6,'do','add defender c_leg10','{"t": "{} ({}, {}) joins the defender ({}).", "a": [{"t": "Legio {}", "a": ["10"]}, "C4", "III", {"t": "Caesar"}], "o": "jc"}',3923185589);
INSERT INTO "actions" VALUES(1,7,'do','owner c_leg10 pompey','{"t": "{} now fights for {}.", "a": [{"t": "Legio {}", "a": ["10"]}, {"t": "Pompey"}], "o": "jc"}',2877635583);
INSERT INTO "actions" VALUES(1,8,'do','next-battle attacker=caesar','{"t": "Battle {}: {} attacks.", "a": [3, {"t": "Caesar"}], "o": "jc"}',1142495045);
INSERT INTO "actions" VALUES(1,9,'do','add attacker c_leg9','{"t": "{} ({}, {}) joins the attacker ({}).", "a": [{"t": "Legio {}", "a": ["9"]}, "C2", "III", {"t": "Caesar"}], "o": "jc"}',3084052364);
INSERT INTO "actions" VALUES(1,10,'do','add defender p_leg2','{"t": "{} ({}, {}) joins the defender ({}).", "a": [{"t": "Legio {}", "a": ["2"]}, "C2", "IV", {"t": "Pompey"}], "o": "jc"}',969619683);
INSERT INTO "actions" VALUES(1,11,'do','winter','{"t": "Winter: {}", "a": [{"t": "No winner yet (Caesar {} VP, Pompey {} VP).", "a": [1, 7]}], "o": "jc"}',4184303553);
INSERT INTO "actions" VALUES(1,12,'do','add attacker c_leg11','{"t": "{} ({}, {}) joins the attacker ({}).", "a": [{"t": "Legio {}", "a": ["11"]}, "C3", "III", {"t": "Caesar"}], "o": "jc"}',228128323);
INSERT INTO "actions" VALUES(1,13,'do','add defender p_leg3','{"t": "{} ({}, {}) joins the defender ({}).", "a": [{"t": "Legio {}", "a": ["3"]}, "C3", "III", {"t": "Pompey"}], "o": "jc"}',1202493834);
INSERT INTO "actions" VALUES(1,14,'do','start','{"t": "Battle {} begins.", "a": [3], "o": "jc"}',894350339);
INSERT INTO "actions" VALUES(1,15,'do','auto','{"t": "{} ({}).", "a": [{"t": "{}: fires {}, {n} hit", "a": [{"t": "Round {} {} ({}, {})", "a": [1, {"t": "Legio {}", "a": ["2"]}, "C2", "IV"]}, "6 5 2 6"], "k": {"n": 1}, "p": "{}: fires {}, {n} hits"}, {"l": [{"t": "{} {}→{}", "a": [{"t": "Legio {}", "a": ["9"]}, "III", "II"]}]}], "o": "jc"}',1931968322);
CREATE TABLE checkpoints(session INTEGER NOT NULL, depth INTEGER NOT NULL, top INTEGER NOT NULL,
                                       state TEXT NOT NULL, crc INTEGER NOT NULL, PRIMARY KEY(session, depth, top));
CREATE TABLE damaged(id INTEGER PRIMARY KEY, what TEXT NOT NULL, data TEXT NOT NULL, reason TEXT NOT NULL);
CREATE TABLE history(id INTEGER PRIMARY KEY, sid TEXT NOT NULL, part TEXT NOT NULL,
                                   game TEXT NOT NULL, depth INTEGER NOT NULL, sealed INTEGER NOT NULL,
                                   record TEXT NOT NULL, crc INTEGER NOT NULL, UNIQUE(sid, part));
INSERT INTO "history" VALUES(1,'684540be4afcd332','battle-1','jc-battle',3,1,'{"finished": "2026-11-27T11:59:43Z", "fp": "8f45c21172eedf38006994d2710502bf05d54698bc8e6e3cbd5787f7937e422f", "game": "jc-battle", "mode": {"attacker": "caesar", "kind": "battle", "number": 1, "surprise": false, "winner_role": "attacker"}, "players": [{"name": "Caesar", "score": 2, "startPlayer": true, "winner": true}, {"name": "Pompey", "score": 0, "startPlayer": false, "winner": false}], "result": {"a": [1, {"t": "Caesar"}], "t": "Battle {}: {} attacked and won."}, "started": "2026-11-27T11:59:42Z", "status": "finished", "unsynced": ["started", "finished"]}',2242246529);
CREATE TABLE history_started(sid TEXT PRIMARY KEY, started TEXT NOT NULL);
INSERT INTO "history_started" VALUES('684540be4afcd332','2026-11-27T11:59:42Z~');
CREATE TABLE sessions(id INTEGER PRIMARY KEY, header TEXT NOT NULL, current INTEGER NOT NULL,
                                    ended REAL, crc INTEGER NOT NULL);
INSERT INTO "sessions" VALUES(1,'{"game": "jc-battle", "line": "new jc-battle seed=51", "seed": 51, "sid": "684540be4afcd332", "v": 1}',1,NULL,3230829511);
CREATE TABLE settings(key TEXT PRIMARY KEY, value TEXT NOT NULL, crc INTEGER NOT NULL);
INSERT INTO "settings" VALUES('language','"uk"',1087787935);
COMMIT;
