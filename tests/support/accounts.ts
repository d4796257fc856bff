import { randomUUID } from 'node:crypto'
import { eq } from 'drizzle-orm'
import { packages, users } from '~/db/schema'
import { register } from '~/domain/accounts/accounts.server'
import { createSessionToken, type SignInMethod } from '~/utils/auth.server'
import { db } from '~/db/db.server'
import { getSessionStorage } from '~/utils/session.server'

export const PASSWORD = 'secret-pw1'

export function uniqueEmail(prefix = 'user') {
	return `${prefix}-${randomUUID().slice(0, 8)}@example.com`
}

/** A registered customer, through the real registration. */
export async function createCustomer(overrides: { email?: string; password?: string } = {}) {
	const email = overrides.email ?? uniqueEmail('customer')
	const result = await register(
		{
			role: 'customer',
			firstName: 'Kati',
			lastName: 'Karu',
			email,
			mobile: '+372 5555 0000',
			password: overrides.password ?? PASSWORD,
			confirmPassword: overrides.password ?? PASSWORD,
		},
		'en',
	)
	if (!result.ok) throw new Error(`could not register ${email}`)
	const [user] = await db.select().from(users).where(eq(users.id, result.userId))
	return user!
}

/** An administrator: a registered account given the role (as `npm run admin:create` does). */
export async function createAdmin() {
	const user = await createCustomer()
	const [admin] = await db.update(users).set({ role: 'admin' }).where(eq(users.id, user.id)).returning()
	return admin!
}

/** What a workshop owner types into the registration form (the real form's fields). */
export function workshopRegistration(email: string, names: { companyName: string; workshopName: string }) {
	return {
		role: 'workshop' as const,
		firstName: 'Toomas',
		lastName: 'Tamm',
		email,
		mobile: '+372 5555 1111',
		password: PASSWORD,
		confirmPassword: PASSWORD,
		companyId: '1234567890',
		...names,
	}
}

export async function ensureFreePackage() {
	const [free] = await db.select().from(packages).where(eq(packages.code, 'free'))
	if (free) return free
	const [created] = await db
		.insert(packages)
		.values({ code: 'free', nameEt: 'Tasuta', nameEn: 'Free', nameRu: 'Бесплатный', priceCents: 0, offersPerMonth: 5 })
		.returning()
	return created!
}

/**
 * A request carrying a browser session for the user, as the portal's cookie would: opened by a
 * password unless `method` says how (an administrator's needs eID or a passkey for /admin).
 */
export async function signedInRequest(userId: string, url = 'http://localhost/dashboard', method: SignInMethod = 'password') {
	const token = await createSessionToken(db, { userId, kind: 'web', method })
	return { token, request: await requestWithToken(token, url) }
}

/**
 * A request of an administrator signed in as an administrator must be (decision 0156): with a
 * second factor, here a passkey. A session opened by a password alone is sent to /admin/verify.
 */
export function adminRequest(adminId: string, url = 'http://localhost/admin') {
	return signedInRequest(adminId, url, 'passkey')
}

export async function requestWithToken(token: string, url = 'http://localhost/dashboard') {
	const session = await getSessionStorage().getSession()
	session.set('token', token)
	const cookie = (await getSessionStorage().commitSession(session)).split(';')[0]!
	return new Request(url, { headers: { Cookie: cookie } })
}

/** A new Request with the same cookies (each HTTP request of a browser is a new Request). */
export function again(request: Request, url = request.url) {
	return new Request(url, { headers: request.headers })
}
