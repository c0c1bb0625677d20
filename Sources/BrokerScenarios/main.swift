print("BrokerScenarios: coming")
