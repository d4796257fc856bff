import { Honeypot, SpamError } from 'remix-utils/honeypot/server'
import { getSessionSecrets } from './env.server'

let honeypot: Honeypot | undefined

function getHoneypot() {
	return (honeypot ??= new Honeypot({ validFromFieldName: 'from__confirm', encryptionSeed: getSessionSecrets()[0] }))
}

/** Field names and the encrypted timestamp for the forms of this page. */
export function honeypotInputProps() {
	return getHoneypot().getInputProps()
}

/** True when a bot filled the trap field or sent a form faster than a person could. */
export function isSpam(formData: FormData): boolean {
	try {
		getHoneypot().check(formData)
		return false
	} catch (error) {
		if (error instanceof SpamError) return true
		throw error
	}
}
