"""*Julius Caesar* (Columbia Games, 2010): block battles with exact odds, and the bookkeeping
around them (VP, cards, winter, levy data). Rule IDs J-n refer to reference/julius_caesar.md."""
