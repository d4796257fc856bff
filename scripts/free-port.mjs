// A port nobody listens on (the system's choice), for the tests and scripts that start a server of
// their own beside the others (the dev server's test, the production-install check, Lighthouse).
import net from 'node:net'

/** @returns {Promise<number>} */
export async function freePort() {
	const server = net.createServer()
	await new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(undefined)))
	const address = /** @type {import('node:net').AddressInfo} */ (server.address())
	await new Promise((resolve) => server.close(() => resolve(undefined)))
	return address.port
}
