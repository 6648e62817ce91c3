# Croupier firmware package. VERSION is reported by the protocol's `hello` and the splash screen.
VERSION = "0.1.0"
