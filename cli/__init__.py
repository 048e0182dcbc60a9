"""The command line: `photosolve PHOTO` and its subcommands."""
import os

# photosolve's matrices are small (36 halves by a few hundred features): OpenBLAS's worker threads cost more to
# wake than they save, and on a busy machine they spin, up to 30 ms a product. Set before numpy is imported.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
