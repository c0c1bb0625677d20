print("ping")
