"""«Во славу Рима» (For the Glory of Rome): fame track, Senate, rounds and final scoring (G-1..G-20)."""
