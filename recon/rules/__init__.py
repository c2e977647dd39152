"""The deduction rules, in Python: the single-clue closure (`closure`), trimming with its written
proof (`trim`) and the same rules without the proof (`quiet`). Engines, the compiled kernels and
generation build on them; each compiled kernel in `recon.compiled` has its twin here."""
