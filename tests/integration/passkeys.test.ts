import { eq } from 'drizzle-orm'
import { describe, expect, test } from 'vitest'
import { passkeys, users, webauthnChallenges } from '~/db/schema'
import { db } from '~/db/db.server'
import { addPasskey, listPasskeys, passkeyAddOptions, passkeySignInOptions, relyingParty, removePasskey, signInWithPasskey } from '~/domain/accounts/passkeys.server'
import { DomainError } from '~/utils/errors'
import { collectAccountData } from '~/domain/privacy/data-export.server'
import { deleteOwnAccount } from '~/domain/privacy/account-deletion.server'
import { createCustomer, PASSWORD } from '#tests/support/accounts'
import { softAuthenticator } from '#tests/support/soft-authenticator'

/**
 * Passkeys (issue 36, decision 0151): each refusal the issue names, answered by a software
 * authenticator that answers as told, signs nobody in and keeps nothing; none is a 500.
 */
const ip = () => `10.9.${Math.floor(Math.random() * 250)}.${1 + Math.floor(Math.random() * 250)}`
const origin = () => relyingParty()!.origin

async function customerWithPasskey() {
	const user = await createCustomer()
	const device = softAuthenticator()
	const options = await passkeyAddOptions({ id: user.id, mayAddWayIn: true, email: user.email, name: 'Kati Karu' }, ip())
	await addPasskey({ id: user.id, mayAddWayIn: true }, device.register(options, { origin: origin() }), 'Phone')
	return { user, device }
}

async function refusal(work: Promise<unknown>) {
	const error = await work.then(
		() => null,
		(failure: unknown) => failure,
	)
	expect(error).toBeInstanceOf(DomainError)
	return error as DomainError
}

describe('adding a passkey', () => {
	test('keeps it under its name, resident and verified; the options leave out the person’s own', async () => {
		const { user, device } = await customerWithPasskey()
		const list = await listPasskeys(user.id)
		expect(list.map((each) => each.name)).toEqual(['Phone'])
		const again = await passkeyAddOptions({ id: user.id, mayAddWayIn: true, email: user.email, name: 'Kati Karu' }, ip())
		expect(again.authenticatorSelection).toMatchObject({ residentKey: 'required', userVerification: 'required' })
		expect(again.excludeCredentials?.map((each) => each.id)).toEqual([device.id])
		expect(again.rp.id).toBe(relyingParty()!.id)
	})

	test('is refused from another origin, without user verification, or as a replay, and keeps nothing', async () => {
		const user = await createCustomer()
		const device = softAuthenticator()
		const foreign = await passkeyAddOptions({ id: user.id, mayAddWayIn: true, email: user.email, name: '' }, ip())
		expect((await refusal(addPasskey({ id: user.id, mayAddWayIn: true }, device.register(foreign, { origin: 'https://evil.example' }), 'Phone'))).status).toBe(400)
		const unverified = await passkeyAddOptions({ id: user.id, mayAddWayIn: true, email: user.email, name: '' }, ip())
		expect((await refusal(addPasskey({ id: user.id, mayAddWayIn: true }, device.register(unverified, { origin: origin(), verified: false }), 'Phone'))).status).toBe(400)
		const options = await passkeyAddOptions({ id: user.id, mayAddWayIn: true, email: user.email, name: '' }, ip())
		const answer = device.register(options, { origin: origin() })
		// Another person cannot use this person's challenge.
		const other = await createCustomer()
		expect((await refusal(addPasskey({ id: other.id, mayAddWayIn: true }, answer, 'Stolen'))).status).toBe(400)
		expect(await listPasskeys(user.id)).toEqual([])
		expect(await listPasskeys(other.id)).toEqual([])
	})

	test('a challenge is taken once', async () => {
		const user = await createCustomer()
		const device = softAuthenticator()
		const options = await passkeyAddOptions({ id: user.id, mayAddWayIn: true, email: user.email, name: '' }, ip())
		const answer = device.register(options, { origin: origin() })
		await addPasskey({ id: user.id, mayAddWayIn: true }, answer, 'Phone')
		expect((await refusal(addPasskey({ id: user.id, mayAddWayIn: true }, answer, 'Phone again'))).status).toBe(400)
		expect(await db.select().from(webauthnChallenges).where(eq(webauthnChallenges.challenge, options.challenge))).toEqual([])
	})
})

describe('signing in with a passkey', () => {
	test('opens the passkey’s account and notes its use', async () => {
		const { user, device } = await customerWithPasskey()
		const options = await passkeySignInOptions(ip())
		expect(options.userVerification).toBe('required')
		expect(await signInWithPasskey(device.signIn(options, { origin: origin() }), ip())).toMatchObject({ id: user.id, role: 'customer' })
		const [stored] = await db.select().from(passkeys).where(eq(passkeys.userId, user.id))
		expect(stored!.counter).toBe(1)
		expect(stored!.lastUsedAt).not.toBeNull()
	})

	test('refuses a replay, another origin or RP ID, no user verification, a lower counter, a challenge not handed out, an unknown passkey', async () => {
		const { user, device } = await customerWithPasskey()
		const first = device.signIn(await passkeySignInOptions(ip()), { origin: origin() })
		await signInWithPasskey(first, ip())
		const refusedWith = async (answer: Parameters<typeof signInWithPasskey>[0]) => {
			const error = await refusal(signInWithPasskey(answer, ip()))
			expect(error.status).toBe(401)
			expect(error.key).toBe('auth:passkey.refused')
		}
		await refusedWith(first)
		await refusedWith(device.signIn(await passkeySignInOptions(ip()), { origin: 'https://evil.example' }))
		await refusedWith(device.signIn(await passkeySignInOptions(ip()), { origin: origin(), rpId: 'evil.example' }))
		await refusedWith(device.signIn(await passkeySignInOptions(ip()), { origin: origin(), verified: false }))
		// A cloned authenticator: its counter is behind the one the portal saw.
		await refusedWith(device.signIn(await passkeySignInOptions(ip()), { origin: origin(), counter: 1 }))
		await refusedWith(device.signIn(await passkeySignInOptions(ip()), { origin: origin(), challenge: 'bm90LWhhbmRlZC1vdXQ' }))
		await refusedWith(softAuthenticator().signIn(await passkeySignInOptions(ip()), { origin: origin() }))
		await refusedWith({ id: 42, response: null } as never)
		// The counter only moved with the first sign-in.
		const [stored] = await db.select().from(passkeys).where(eq(passkeys.userId, user.id))
		expect(stored!.counter).toBe(1)
		// The right answer still works.
		expect(await signInWithPasskey(device.signIn(await passkeySignInOptions(ip()), { origin: origin() }), ip())).toMatchObject({ id: user.id, role: 'customer' })
	})

	test('a blocked account is told so, after a right passkey', async () => {
		const { user, device } = await customerWithPasskey()
		await db.update(users).set({ blocked: true }).where(eq(users.id, user.id))
		const error = await refusal(signInWithPasskey(device.signIn(await passkeySignInOptions(ip()), { origin: origin() }), ip()))
		expect(error.key).toBe('auth:login.blocked')
	})

	test('failures from one address are limited', async () => {
		const address = ip()
		const stranger = softAuthenticator()
		let last: DomainError | null = null
		for (let n = 0; n < 21; n += 1) last = await refusal(signInWithPasskey(stranger.signIn(await passkeySignInOptions(ip()), { origin: origin() }), address))
		expect(last!.status).toBe(429)
	})
})

describe('removing a passkey', () => {
	test('only its owner can; another’s id is not found', async () => {
		const { user } = await customerWithPasskey()
		const [own] = await listPasskeys(user.id)
		const other = await createCustomer()
		expect((await refusal(removePasskey(other.id, own!.id))).status).toBe(404)
		await removePasskey(user.id, own!.id)
		expect(await listPasskeys(user.id)).toEqual([])
	})
})

describe('a person’s passkeys and their data', () => {
	test('the export names them with their dates, never their keys; deleting the account removes them', async () => {
		const { user } = await customerWithPasskey()
		const { data } = await collectAccountData(user.id)
		expect(data.passkeys).toEqual([expect.objectContaining({ name: 'Phone', lastUsedAt: null })])
		expect(JSON.stringify(data.passkeys)).not.toMatch(/publicKey|credentialId|counter/)
		await deleteOwnAccount({ userId: user.id, password: PASSWORD })
		expect(await db.select().from(passkeys).where(eq(passkeys.userId, user.id))).toEqual([])
	})
})
