"""The deduction rules, in Python: the single-clue closure (`closure`) and trimming (`trim`, with
or without its written proof). Engines, the compiled kernels and generation build on them; each
compiled kernel in `recon.compiled` has its twin here."""
