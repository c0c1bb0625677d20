print("example coming")
