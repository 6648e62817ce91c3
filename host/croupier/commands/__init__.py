"""Device and database sub-commands of `croupier`."""
