"""dllog: find deep-learning code that will be impossible to debug or reproduce."""
__version__ = "0.1.0"
