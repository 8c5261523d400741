"""The one exception type for bad input: the CLI prints its message as one line, exit 2."""


class AnalyzerError(ValueError):
    """Bad input of any kind (unknown game, bad option, malformed scenario, ...).

    The message is a single line that names the problem; the CLI prints it as is.
    """
