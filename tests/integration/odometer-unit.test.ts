import { parseWithZod } from '@conform-to/zod/v4'
import { and, eq } from 'drizzle-orm'
import { describe, expect, test } from 'vitest'
import { notifications, offers, vehicleReminders, vehicles, workshops } from '~/db/schema'
import { db } from '~/db/db.server'
import { getFixedT } from '~/i18n/i18n.server'
import { completeJob } from '~/domain/service-flow/job-moves.server'
import { addServiceRecord, vehiclePassport } from '~/domain/service-flow/passport.server'
import { reminderSchemas } from '~/domain/service-flow/reminder-schema'
import { saveReminder, sendReminders, vehicleReminderList } from '~/domain/service-flow/reminders.server'
import { distanceText, fromKm, toKm } from '~/domain/service-flow/vehicle-kinds'
import { VehicleSchema } from '~/domain/service-flow/vehicles'
import { createVehicle, getVehicle, updateVehicle } from '~/domain/service-flow/vehicles.server'
import { type WorkshopActor } from '~/utils/auth.server'
import { makeOffer, selectOffer } from '~/domain/service-flow/offer-moves.server'
import { createCustomer } from '#tests/support/accounts'
import { openRequest, referenceData, uniquePlate, workshopOffering } from '#tests/support/flow'
import { refused, rejection } from '#tests/support/refusals'

/**
 * Issue 32, item 2: every reading, warranty and interval is kept in km; each vehicle has its
 * odometer unit (km by default), in which its forms take readings and its pages show them.
 */

const number = (value: number, language: string) => new Intl.NumberFormat(language).format(value)

async function vehicleIn(unit: 'km' | 'mi' | undefined, mileage: number) {
	const refs = await referenceData()
	const customer = await createCustomer()
	const vehicleId = await createVehicle(customer.id, {
		registrationNumber: uniquePlate(),
		vehicleYear: 2016,
		brandId: refs.brandId,
		model: 'Corolla',
		modelSpecification: '1.6',
		transmission: 'manual',
		mileage,
		...(unit ? { odometerUnit: unit } : {}),
	})
	return { customerId: customer.id, vehicleId, refs }
}

const stored = async (vehicleId: string) => (await db.select().from(vehicles).where(eq(vehicles.id, vehicleId)))[0]!

describe('the odometer unit', () => {
	test('a vehicle is in km unless its owner says miles; a miles reading is kept in km and shown as typed', async () => {
		const km = await vehicleIn(undefined, 88_000)
		expect(await stored(km.vehicleId)).toMatchObject({ odometerUnit: 'km', mileage: 88_000 })

		const mi = await vehicleIn('mi', 61_514)
		expect(await stored(mi.vehicleId)).toMatchObject({ odometerUnit: 'mi', mileage: 98_997 })
		const vehicle = await getVehicle(mi.customerId, mi.vehicleId)
		expect(fromKm(vehicle.mileage, vehicle.odometerUnit)).toBe(61_514)
		// Every whole number of miles comes back as typed.
		for (const miles of [0, 1, 2, 99_999, 123_457, 999_999]) expect(fromKm(toKm(miles, 'mi'), 'mi')).toBe(miles)

		// Shown in the vehicle's unit, in each language.
		expect(distanceText(getFixedT('et', 'customer'), 98_997, 'mi')).toBe(`${number(61_514, 'et')} miili`)
		expect(distanceText(getFixedT('en', 'customer'), 98_997, 'mi')).toBe('61,514 miles')
		expect(distanceText(getFixedT('ru', 'customer'), 98_997, 'mi')).toBe(`${number(61_514, 'ru')} миль`)
		expect(distanceText(getFixedT('ru', 'customer'), toKm(22, 'mi'), 'mi')).toBe('22 мили')
		expect(distanceText(getFixedT('ru', 'customer'), toKm(21, 'mi'), 'mi')).toBe('21 миля')
		expect(distanceText(getFixedT('ru', 'customer'), toKm(5, 'mi'), 'mi')).toBe('5 миль')
		expect(distanceText(getFixedT('et', 'customer'), 88_000, 'km')).toBe(`${number(88_000, 'et')} km`)

		// The owner says the odometer is in km after all: the reading typed with it is km.
		const same = { registrationNumber: vehicle.registrationNumber, vehicleYear: 2016, brandId: vehicle.brandId, model: vehicle.model, modelSpecification: vehicle.modelSpecification, transmission: vehicle.transmission }
		await updateVehicle(mi.customerId, mi.vehicleId, { ...same, odometerUnit: 'km', mileage: 99_100 })
		expect(await stored(mi.vehicleId)).toMatchObject({ odometerUnit: 'km', mileage: 99_100 })
	})

	test('a job, a record and a warranty of a miles vehicle: typed in miles, computed in km, told in miles', async () => {
		const mi = await vehicleIn('mi', 61_514)
		const workshop: WorkshopActor = await workshopOffering([mi.refs.brakes])
		await db.update(workshops).set({ warrantyWorkKm: 20_000, warrantyPartsMonths: 6 }).where(eq(workshops.id, workshop.workshopId))
		const requestId = await openRequest(mi.customerId, mi.vehicleId, [mi.refs.brakes])
		const offerId = await makeOffer(workshop, requestId, { price: 15000 }, null)
		await selectOffer(mi.customerId, requestId, offerId)

		// Below the last reading, in the unit the workshop typed.
		const below = (await rejection(completeJob(workshop, offerId, 15000, { mileage: 61_000 }))) as { key: string; params: unknown }
		expect(below).toMatchObject({ key: 'workshop:job.mileageBelow.mi', params: { mileage: 61_514 } })
		await completeJob(workshop, offerId, 15000, { mileage: 62_000 })
		const [offer] = await db.select({ mileageAtJob: offers.mileageAtJob }).from(offers).where(eq(offers.id, offerId))
		expect(offer!.mileageAtJob).toBe(99_779)
		expect((await stored(mi.vehicleId)).mileage).toBe(99_779)

		// The warranty: 20,000 km from the job, all in km; shown as miles on the passport.
		const passport = await vehiclePassport(await getVehicle(mi.customerId, mi.vehicleId), 'et')
		const [warranty] = passport.warranties
		expect(warranty!.work).toMatchObject({ untilKm: 119_779, leftKm: 20_000, state: 'valid' })
		const t = getFixedT('et', 'customer')
		const text = t('passport.workLeft', { left: distanceText(t, warranty!.work!.leftKm, 'mi'), until: distanceText(t, warranty!.work!.untilKm, 'mi') })
		expect(text).toBe(`Jäänud ${number(12_427, 'et')} miili (garantii lõpeb näidul: ${number(74_427, 'et')} miili).`)
		expect(text).not.toContain('km')

		// A record of work elsewhere, typed in miles; its errors name miles.
		const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10)
		await addServiceRecord(mi.customerId, mi.vehicleId, { performedOn: day(-60), mileage: 60_000, description: 'Oil', workshopName: '' }, null)
		expect(passport.history[0]!.mileage).toBe(99_779)
		const above = (await rejection(addServiceRecord(mi.customerId, mi.vehicleId, { performedOn: day(-10), mileage: 63_000, description: 'Oil', workshopName: '' }, null))) as { key: string; params: unknown }
		expect(above).toMatchObject({ key: 'customer:passport.mileageAbove.mi', params: { mileage: 62_000 } })
	})

	test("a miles vehicle's service interval: typed in miles, kept in km, its notice names the reading in miles", async () => {
		const mi = await vehicleIn('mi', 61_514)
		const form = (fields: Record<string, string>) => {
			const data = new FormData()
			data.set('kind', 'service')
			for (const [name, value] of Object.entries(fields)) data.set(name, value)
			const submission = parseWithZod(data, { schema: reminderSchemas.service })
			if (submission.status !== 'success') throw new Error(JSON.stringify(submission.error))
			return submission.value
		}
		const lastDoneOn = new Date(Date.now() - 20 * 86_400_000).toISOString().slice(0, 10)
		await refused(saveReminder(mi.customerId, mi.vehicleId, form({ lastDoneOn, lastDoneMileage: '55000', everyKm: '90000', everyMonths: '12' })), 'customer:reminders.serviceMiRange')
		await saveReminder(mi.customerId, mi.vehicleId, form({ lastDoneOn, lastDoneMileage: '55000', everyKm: '6000', everyMonths: '12' }))
		const [row] = await db.select().from(vehicleReminders).where(and(eq(vehicleReminders.vehicleId, mi.vehicleId), eq(vehicleReminders.kind, 'service')))
		expect(row).toMatchObject({ lastDoneMileage: 88_514, everyKm: 9_656 })
		// Due at 61,000 miles: the vehicle is past it.
		const vehicle = await getVehicle(mi.customerId, mi.vehicleId)
		const service = (await vehicleReminderList(vehicle)).reminders[2]!
		expect(service).toMatchObject({ state: 'overdue', dueKm: 98_170 })
		expect(fromKm(service.dueKm!, 'mi')).toBe(61_000)
		await sendReminders()
		const [notice] = await db.select().from(notifications).where(and(eq(notifications.userId, mi.customerId), eq(notifications.messageKey, 'notifications.reminderService')))
		expect(notice!.messageParams).toMatchObject({ reading: 61_000 })
	})

	test('a reading that is negative, not a number or more than an odometer shows is a translated error next to the field', () => {
		const errorOf = (mileage: string | null) => {
			const data = new FormData()
			for (const [name, value] of Object.entries({ registrationNumber: '123ABC', vehicleYear: '2016', brandId: crypto.randomUUID(), model: 'Golf', modelSpecification: '1.4', transmission: 'manual' })) data.set(name, value)
			if (mileage !== null) data.set('mileage', mileage)
			const submission = parseWithZod(data, { schema: VehicleSchema })
			return submission.status === 'success' ? { value: submission.value } : { error: submission.error?.mileage?.[0] }
		}
		expect(errorOf(null)).toEqual({ error: 'validation.required' })
		expect(errorOf('-5')).toEqual({ error: 'validation.readingNegative' })
		expect(errorOf('abc')).toEqual({ error: 'validation.readingNumber' })
		expect(errorOf('12.5')).toEqual({ error: 'validation.readingNumber' })
		expect(errorOf('1000000')).toEqual({ error: 'validation.readingTooHigh' })
		expect(errorOf('88 000')).toMatchObject({ value: { mileage: 88_000, odometerUnit: 'km' } })
		for (const language of ['et', 'en', 'ru'] as const) {
			const t = getFixedT(language, 'common')
			for (const key of ['validation.readingNegative', 'validation.readingNumber', 'validation.readingTooHigh']) expect(t(key)).not.toBe(key)
		}
	})
})
