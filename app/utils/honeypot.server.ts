import { Honeypot, SpamError } from 'remix-utils/honeypot/server'
import { getSessionSecrets } from './env.server'

let honeypots: Honeypot[] | undefined

/** One per session secret, the first encrypting: a form shown before a rotation still counts (decision 0142). */
function getHoneypots() {
	return (honeypots ??= getSessionSecrets().map((encryptionSeed) => new Honeypot({ validFromFieldName: 'from__confirm', encryptionSeed })))
}

function getHoneypot() {
	return getHoneypots()[0]!
}

/** Field names and the encrypted timestamp for the forms of this page. */
export function honeypotInputProps() {
	return getHoneypot().getInputProps()
}

/** True when a bot filled the trap field or sent a form faster than a person could. */
export function isSpam(formData: FormData): boolean {
	let failure: unknown
	for (const honeypot of getHoneypots()) {
		try {
			honeypot.check(formData)
			return false
		} catch (error) {
			// Decrypting with another secret's key may fail outright: that secret did not encrypt it.
			failure = error
		}
	}
	if (failure instanceof SpamError) return true
	throw failure
}
