// Runs before each API check of the Checkout group.
request.headers['x-request-id'] = crypto.randomUUID();
