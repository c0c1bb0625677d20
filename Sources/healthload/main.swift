print("healthload: coming")
