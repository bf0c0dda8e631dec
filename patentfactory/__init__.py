"""patentfactory: the CLI, storage, publish, generator and upstream replica."""
__version__ = "0.1.0"
