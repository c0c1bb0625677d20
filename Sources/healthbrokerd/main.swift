print("healthbrokerd")
