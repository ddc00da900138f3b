# Imports a library that is not installed: runtime_error with signature import_error.
import pandas as pd
import lightgbm_that_does_not_exist  # noqa: F401
