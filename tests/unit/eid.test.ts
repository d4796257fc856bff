import { createHash } from 'node:crypto'
import { afterAll, describe, expect, test } from 'vitest'
import { assuranceLevel, atHashMatches, EidRefused, personName, subjectHash, verifiedPerson } from '~/identity/oidc.server'
import { getEnv, resetEnvCache } from '~/utils/env.server'

/**
 * eID's pure parts (issue 36, decision 0150): the configuration's all-or-nothing, the level of
 * assurance, TARA's at_hash in standard Base64, the person read from TARA's and brokers' claims.
 */

const saved = { ...process.env }
const eid = {
	OIDC_ISSUER: 'https://tara-test.ria.ee',
	OIDC_CLIENT_ID: 'autohub',
	OIDC_CLIENT_SECRET: 'secret',
	EID_HASH_SECRET: 'unit-tests-eid-hash-secret-0123456789abcdef',
}

function withEnv(values: Record<string, string | undefined>) {
	for (const name of [...Object.keys(eid), 'OIDC_SCOPES']) delete process.env[name]
	for (const [name, value] of Object.entries(values)) if (value !== undefined) process.env[name] = value
	resetEnvCache()
}

afterAll(() => {
	for (const name of [...Object.keys(eid), 'OIDC_SCOPES']) delete process.env[name]
	Object.assign(process.env, Object.fromEntries(Object.entries(saved).filter(([name]) => name in eid)))
	resetEnvCache()
})

describe('the configuration', () => {
	test('eID is off without OIDC_ISSUER, on with all four, and half a configuration names what is missing', () => {
		withEnv({})
		expect(getEnv().eid).toBeNull()
		withEnv(eid)
		expect(getEnv().eid).toEqual({ issuer: eid.OIDC_ISSUER, clientId: 'autohub', clientSecret: 'secret', scopes: 'openid', hashSecret: eid.EID_HASH_SECRET })
		withEnv({ OIDC_ISSUER: eid.OIDC_ISSUER, OIDC_CLIENT_ID: 'autohub' })
		expect(() => getEnv()).toThrow(/OIDC_CLIENT_SECRET:.*\n.*EID_HASH_SECRET:/)
		withEnv({ ...eid, EID_HASH_SECRET: 'short' })
		expect(() => getEnv()).toThrow(/EID_HASH_SECRET/)
		withEnv({ ...eid, OIDC_SCOPES: 'profile email' })
		expect(() => getEnv()).toThrow(/OIDC_SCOPES: must include openid/)
		withEnv({ ...eid, OIDC_SCOPES: 'openid profile' })
		expect(getEnv().eid?.scopes).toBe('openid profile')
	})
})

describe('the level of assurance', () => {
	test('TARA’s names and eIDAS’s URIs; missing or unknown is below every level', () => {
		expect([assuranceLevel('low'), assuranceLevel('substantial'), assuranceLevel('high')]).toEqual([1, 2, 3])
		expect(assuranceLevel('http://eidas.europa.eu/LoA/substantial')).toBe(2)
		expect(assuranceLevel('HIGH')).toBe(3)
		expect([assuranceLevel(undefined), assuranceLevel('loa2'), assuranceLevel(3)]).toEqual([0, 0, 0])
	})
})

describe('at_hash', () => {
	const idToken = (alg: string) => `${Buffer.from(JSON.stringify({ alg })).toString('base64url')}.e30.sig`
	test('base64url as the specification says, and standard Base64 (padded or not) as TARA sends it', () => {
		// A token whose hash's left half has both '+' and '/' in standard Base64, so the two differ.
		let accessToken = ''
		let half = Buffer.alloc(0)
		for (let i = 0; ; i++) {
			accessToken = `token-${i}`
			half = createHash('sha256').update(accessToken).digest().subarray(0, 16)
			const standard = half.toString('base64')
			if (standard.includes('+') && standard.includes('/')) break
		}
		const standard = half.toString('base64')
		expect(standard).not.toBe(half.toString('base64url'))
		for (const form of [half.toString('base64url'), standard, standard.replace(/=+$/, '')]) expect(atHashMatches(form, accessToken, idToken('RS256')), form).toBe(true)
		expect(atHashMatches(half.toString('base64url'), `${accessToken}x`, idToken('RS256'))).toBe(false)
		// RS512: the left half of SHA-512.
		const long = createHash('sha512').update(accessToken).digest().subarray(0, 32)
		expect(atHashMatches(long.toString('base64'), accessToken, idToken('RS512'))).toBe(true)
	})
})

describe('the person in the claims', () => {
	test('TARA: sub "EE" + the personal code, names in profile_attributes, written as people write them', () => {
		withEnv(eid)
		const person = verifiedPerson({
			sub: 'EE38001085718',
			profile_attributes: { given_name: 'MARY ÄNN', family_name: 'O’CONNEŽ-ŠUSLIK TESTNUMBER', date_of_birth: '1980-01-08' },
			amr: ['mID'],
		})
		expect(person).toEqual({ subjectHash: subjectHash('EE', '38001085718'), country: 'EE', firstName: 'Mary Änn', lastName: 'O’Connež-Šuslik Testnumber', method: 'mID' })
		expect(person.subjectHash).not.toContain('38001085718')
	})

	test('brokers: an ETSI identifier, or nin and its country; the standard name claims', () => {
		withEnv(eid)
		const etsi = verifiedPerson({ sub: 'PNOEE-38001085718', given_name: 'Mari', family_name: 'Maasikas' })
		const nin = verifiedPerson({ sub: 'a1b2c3d4-opaque', nin: '38001085718', nin_issuing_country: 'ee', given_name: 'Mari', family_name: 'Maasikas' })
		// The same person, whichever shape: one hash.
		expect(etsi.subjectHash).toBe(subjectHash('EE', '38001085718'))
		expect(nin.subjectHash).toBe(etsi.subjectHash)
		expect(etsi).toMatchObject({ firstName: 'Mari', lastName: 'Maasikas', method: null })
	})

	test('without a personal code or names: refused as "identity"', () => {
		withEnv(eid)
		const names = { given_name: 'Mari', family_name: 'Maasikas' }
		for (const claims of [
			{ sub: 'opaque', ...names },
			// An opaque id that starts with two letters is not a country and a code.
			{ sub: 'ab3f9e2c-1d2e-4f00-9a1b-2c3d4e5f6a7b', ...names },
			{ sub: 'EE', ...names },
			{ sub: 'EE38001085718', given_name: 'Mari' },
			{ sub: 'EE38001085718', family_name: 'Maasikas', given_name: '  ' },
		]) {
			expect(() => verifiedPerson(claims), JSON.stringify(claims)).toThrow(EidRefused)
		}
	})

	test('the hash is keyed: another secret, another hash', () => {
		withEnv(eid)
		const one = subjectHash('EE', '38001085718')
		withEnv({ ...eid, EID_HASH_SECRET: 'another-eid-hash-secret-0123456789abcdef' })
		expect(subjectHash('EE', '38001085718')).not.toBe(one)
	})

	test('names in capitals become as people write them; others stay as they are', () => {
		expect(personName('JAAN-PEETER TAMM')).toBe('Jaan-Peeter Tamm')
		expect(personName('ÕIE')).toBe('Õie')
		expect(personName('Mari-Liis')).toBe('Mari-Liis')
		expect(personName('  van der   Berg ')).toBe('van der Berg')
	})
})
