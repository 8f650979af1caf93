"""One exception type for bad designer input; the CLI turns it into one line and exit code 2."""


class SimInputError(ValueError):
    """Raised for malformed TOML, unknown ids, impossible settings or bad counts."""
