"""Playing classic Minesweeper: the autoplayer (`autoplay`) and the terminal game (`tui`, needs
Textual). Both ask the one player of `recon.rules.sweeper` what follows from the board."""
