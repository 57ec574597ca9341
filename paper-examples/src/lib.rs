//! Every example of the seed papers, as runnable programs with independently computed expected results.
