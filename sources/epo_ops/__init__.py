"""EPO OPS 3.2: the client (`client`) and the XML parsers (`parse`)."""
