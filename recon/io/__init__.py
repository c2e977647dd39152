"""Reading and writing: recon's text formats (`text`), other programs' formats (`foreign`),
safe output files (`files`) and pictures (`pictures`, with matplotlib). Nothing here solves."""
