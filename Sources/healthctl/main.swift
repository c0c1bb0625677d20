print("healthctl")
