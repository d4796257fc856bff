import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto'
import { isoBase64URL, isoCBOR } from '@simplewebauthn/server/helpers'
import type { AuthenticationResponseJSON, PublicKeyCredentialCreationOptionsJSON, PublicKeyCredentialRequestOptionsJSON, RegistrationResponseJSON } from '@simplewebauthn/server'

/**
 * A passkey authenticator in software (ES256, "none" attestation), for tests of the server's
 * checks: it answers the portal's options as a browser and a device would, and can be told to
 * answer wrongly (another origin, no user verification, an older counter, another challenge).
 */
export function softAuthenticator() {
	const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' })
	const credentialId = randomBytes(16)
	let counter = 0
	const sha256 = (data: Uint8Array | string) => createHash('sha256').update(data).digest()
	const jwk = publicKey.export({ format: 'jwk' }) as { x: string; y: string }
	const cose = isoCBOR.encode(
		new Map<number, number | Uint8Array>([
			[1, 2],
			[3, -7],
			[-1, 1],
			[-2, isoBase64URL.toBuffer(jwk.x)],
			[-3, isoBase64URL.toBuffer(jwk.y)],
		]),
	)
	const flags = (verified: boolean, attested = false) => 0x01 | (verified ? 0x04 : 0) | (attested ? 0x40 : 0)
	const countBytes = (n: number) => {
		const bytes = Buffer.alloc(4)
		bytes.writeUInt32BE(n)
		return bytes
	}
	const clientData = (type: string, challenge: string, origin: string) => Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false }))

	return {
		id: isoBase64URL.fromBuffer(credentialId),
		register(options: PublicKeyCredentialCreationOptionsJSON, how: { origin: string; rpId?: string; verified?: boolean }): RegistrationResponseJSON {
			const rpIdHash = sha256(how.rpId ?? options.rp.id!)
			const idLength = Buffer.alloc(2)
			idLength.writeUInt16BE(credentialId.length)
			const authData = Buffer.concat([rpIdHash, Buffer.from([flags(how.verified ?? true, true)]), countBytes(counter), Buffer.alloc(16), idLength, credentialId, cose])
			const attestationObject = isoCBOR.encode(new Map<string, unknown>([['fmt', 'none'], ['attStmt', new Map()], ['authData', authData]]) as never)
			const clientDataJSON = clientData('webauthn.create', options.challenge, how.origin)
			return {
				id: this.id,
				rawId: this.id,
				type: 'public-key',
				clientExtensionResults: {},
				response: { clientDataJSON: isoBase64URL.fromBuffer(clientDataJSON), attestationObject: isoBase64URL.fromBuffer(attestationObject), transports: ['internal'] },
			}
		},
		signIn(options: PublicKeyCredentialRequestOptionsJSON, how: { origin: string; rpId?: string; verified?: boolean; counter?: number; challenge?: string }): AuthenticationResponseJSON {
			counter = how.counter ?? counter + 1
			const authData = Buffer.concat([sha256(how.rpId ?? options.rpId!), Buffer.from([flags(how.verified ?? true)]), countBytes(counter)])
			const clientDataJSON = clientData('webauthn.get', how.challenge ?? options.challenge, how.origin)
			const signature = sign('sha256', Buffer.concat([authData, sha256(clientDataJSON)]), privateKey as KeyObject)
			return {
				id: this.id,
				rawId: this.id,
				type: 'public-key',
				clientExtensionResults: {},
				response: {
					clientDataJSON: isoBase64URL.fromBuffer(clientDataJSON),
					authenticatorData: isoBase64URL.fromBuffer(authData),
					signature: isoBase64URL.fromBuffer(signature),
				},
			}
		},
	}
}
