"""Local replica of the upstream HTTP services, serving a generated world under the real paths."""
from .server import Replica, Request, Response, route, serve

__all__ = ["Replica", "Request", "Response", "route", "serve"]
