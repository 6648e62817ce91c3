import croupier.app
croupier.app.run()
