import { eq } from 'drizzle-orm'
import { describe, expect, test } from 'vitest'
import { users, workshops } from '~/db/schema'
import { db } from '~/db/db.server'
import { register } from '~/domain/accounts/accounts.server'
import { workshopOnTheWay } from '~/domain/service-flow/requests.server'
import { encodeId } from '~/utils/public-id'
import { ensureFreePackage, uniqueEmail, workshopRegistration } from '#tests/support/accounts'

/** Issue 32: a real registry code registers (decision 0120); the way in names the workshop (0121). */

async function registeredWorkshop(companyId: string, workshopName: string) {
	await ensureFreePackage()
	const result = await register({ ...workshopRegistration(uniqueEmail('way-in'), { companyName: `${workshopName} OÜ`, workshopName }), companyId }, 'et')
	if (!result.ok) throw new Error('registration failed')
	const [workshop] = await db.select().from(workshops).where(eq(workshops.userId, result.userId))
	return { ...workshop!, userId: result.userId }
}

describe('a workshop with an 8-digit registry code', () => {
	test('is stored as typed; the database takes 8 or 10 digits and nothing else', async () => {
		const workshop = await registeredWorkshop('10137319', 'Kase Garaaž')
		expect(workshop.companyId).toBe('10137319')
		await expect(db.update(workshops).set({ companyId: '101373190' }).where(eq(workshops.id, workshop.id))).rejects.toThrow()
		await db.update(workshops).set({ companyId: '1234567890' }).where(eq(workshops.id, workshop.id))
	})
})

describe('the workshop on a visitor’s way', () => {
	test('is named only for the request form addressed to a workshop that can be asked', async () => {
		const workshop = await registeredWorkshop('12345678', 'Tee Äärne Remont')
		const slug = encodeId(workshop.id)
		expect(await workshopOnTheWay(`/new-service-register?workshop=${slug}`)).toEqual({ id: workshop.id, name: 'Tee Äärne Remont' })
		expect(await workshopOnTheWay(`/new-service-register?vehicle=x&workshop=${slug}`)).toMatchObject({ name: 'Tee Äärne Remont' })
		// Any other way, no workshop or one that does not exist: nothing is named.
		for (const way of [null, '/new-service-register', `/dashboard?workshop=${slug}`, '/new-service-register?workshop=not-an-id', `/new-service-register?workshop=${encodeId('00000000-0000-4000-8000-000000000000')}`]) {
			expect(await workshopOnTheWay(way), String(way)).toBeNull()
		}
		// A blocked owner's workshop cannot be asked: not named either.
		await db.update(users).set({ blocked: true }).where(eq(users.id, workshop.userId))
		expect(await workshopOnTheWay(`/new-service-register?workshop=${slug}`)).toBeNull()
	})
})
