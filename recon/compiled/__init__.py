"""Compiled kernels (being split into one module per rule)."""
