import ModeS
