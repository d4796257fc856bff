import { parseWithZod } from '@conform-to/zod/v4'
import { sql } from 'drizzle-orm'
import { PgDialect } from 'drizzle-orm/pg-core'
import { describe, expect, test } from 'vitest'
import { localizedName, localMonth, monthStart, serviceNames, vehicleLabel } from '~/db/sql'
import { PackageSchema } from '~/domain/admin/admin'
import { OfferSchema } from '~/domain/service-flow/offers'
import { formatMonth } from '~/utils/format'
import { formatMoney, formatMoneyInput, parseMoney } from '~/utils/money'
import { dateToTallinnInput, tallinnMonth, tallinnMonthStart, tallinnToDate, TIME_ZONE } from '~/utils/time'

const nbsp = '\u00a0'

describe('money, read and written in one place', () => {
	test('reads euros as people type them into cents, and nothing else', () => {
		expect(parseMoney('185')).toBe(18_500)
		expect(parseMoney(' 185.5 ')).toBe(18_550)
		expect(parseMoney('185,50')).toBe(18_550)
		expect(parseMoney('0.29')).toBe(29)
		expect(parseMoney('0')).toBe(0)
		for (const bad of ['', '-5', '1 000', '1.005', '12,', '.5', '€5', '5e3', '1234567890']) expect(parseMoney(bad), bad).toBeNull()
	})

	test('writes amounts in the reader’s language, and back into a form field as it reads them', () => {
		expect(formatMoney(18_550, 'en')).toBe('€185.50')
		expect(formatMoney(18_550, 'et')).toBe(`185,50${nbsp}€`)
		expect(formatMoney(123_450, 'ru')).toBe(`1${nbsp}234,50${nbsp}€`)
		for (const language of ['et', 'en', 'ru'] as const) {
			for (const cents of [1, 18_550, 12_345_678]) expect(parseMoney(formatMoneyInput(cents, language))).toBe(cents)
		}
		expect(formatMoneyInput(18_550, 'et')).toBe('185,50')
		expect(formatMoneyInput(18_550, 'en')).toBe('185.50')
	})

	test('the offer and package forms read prices the same way, each with its own range', () => {
		const priceOf = (schema: typeof OfferSchema | typeof PackageSchema, price: string) => {
			const form = new FormData()
			for (const [key, value] of Object.entries({ price, nameEt: 'Pro', nameEn: 'Pro', nameRu: 'Pro' })) form.set(key, value)
			const submission = parseWithZod(form, { schema })
			return submission.status === 'success' ? submission.value.price : submission.reply().error?.price
		}
		expect(priceOf(OfferSchema, '185,50')).toBe(18_550)
		expect(priceOf(OfferSchema, '0')).toEqual(['validation.money'])
		expect(priceOf(OfferSchema, '1000000.01')).toEqual(['validation.money'])
		expect(priceOf(OfferSchema, 'abc')).toEqual(['validation.money'])
		expect(priceOf(OfferSchema, '')).toEqual(['validation.required'])
		expect(priceOf(PackageSchema, '0')).toBe(0)
		expect(priceOf(PackageSchema, '19,9')).toBe(1_990)
		expect(priceOf(PackageSchema, '1000000')).toEqual(['validation.money'])
	})
})

describe('Estonian time, one zone everywhere', () => {
	test('calendar months begin at midnight in Tallinn, in winter and in summer', () => {
		expect(tallinnMonthStart(new Date('2026-01-15T12:00:00Z')).toISOString()).toBe('2025-12-31T22:00:00.000Z')
		expect(tallinnMonthStart(new Date('2026-07-15T12:00:00Z')).toISOString()).toBe('2026-06-30T21:00:00.000Z')
		// 22:30 UTC on 31 December is already January in Tallinn.
		expect(tallinnMonth(new Date('2025-12-31T22:30:00Z'))).toBe('2026-01')
		expect(tallinnMonth(new Date('2025-12-31T21:30:00Z'))).toBe('2025-12')
	})

	test('a form’s local time and the instant convert both ways', () => {
		expect(tallinnToDate('2026-07-01T12:00').toISOString()).toBe('2026-07-01T09:00:00.000Z')
		expect(tallinnToDate('2026-11-25T10:00').toISOString()).toBe('2026-11-25T08:00:00.000Z')
		expect(dateToTallinnInput('2026-11-25T08:00:00.000Z')).toBe('2026-11-25T10:00')
	})
})

describe('the query vocabulary', () => {
	const text = (fragment: ReturnType<typeof sql>) => new PgDialect().sqlToQuery(fragment).sql

	test('months are Estonian calendar months, with the zone written as our one constant', () => {
		expect(text(monthStart)).toBe(`(date_trunc('month', now() at time zone '${TIME_ZONE}') at time zone '${TIME_ZONE}')`)
		expect(text(localMonth(sql`o.completed_at`))).toBe(`to_char(o.completed_at at time zone '${TIME_ZONE}', 'YYYY-MM')`)
	})

	test('names come in the reader’s language; nothing but our own aliases and languages is written into SQL', () => {
		expect(text(localizedName('c', 'ru'))).toBe('c.name_ru')
		expect(text(serviceNames('et'))).toContain('array_agg(s.name_et order by s.sort_order)')
		expect(text(vehicleLabel())).toBe(`b.name_en || ' ' || v.model`)
		expect(text(vehicleLabel('registration'))).toBe(`b.name_en || ' ' || v.model || ' (' || v.registration_number || ')'`)
		expect(() => localizedName('c', 'xx' as 'et')).toThrow()
		expect(() => localizedName('c; drop table users', 'et')).toThrow()
		expect(() => serviceNames('et', 'r.id) --')).toThrow()
	})
})

describe('a calendar month by name', () => {
	test('in each language, whatever the reader’s time zone (the month is a date, not a moment)', () => {
		expect(formatMonth('2026-11', 'en')).toBe('November 2026')
		expect(formatMonth('2026-01', 'et')).toBe('jaanuar 2026')
		expect(formatMonth('2026-03', 'ru')).toMatch(/^март 2026/)
	})
})

describe('Tallinn clock readings on the nights the clocks change', () => {
	test('spring (29 March 2026): the hours before the skip are winter time, the skipped hour is read an hour on', () => {
		expect(tallinnToDate('2026-03-29T01:30').toISOString()).toBe('2026-03-28T23:30:00.000Z')
		expect(tallinnToDate('2026-03-29T02:30').toISOString()).toBe('2026-03-29T00:30:00.000Z')
		expect(tallinnToDate('2026-03-29T03:30').toISOString()).toBe('2026-03-29T01:30:00.000Z')
		expect(tallinnToDate('2026-03-29T04:30').toISOString()).toBe('2026-03-29T01:30:00.000Z')
	})
	test('autumn (25 October 2026): summer time until the repeated hour, whose first reading is taken', () => {
		expect(tallinnToDate('2026-10-25T01:30').toISOString()).toBe('2026-10-24T22:30:00.000Z')
		expect(tallinnToDate('2026-10-25T03:30').toISOString()).toBe('2026-10-25T00:30:00.000Z')
		expect(tallinnToDate('2026-10-25T04:30').toISOString()).toBe('2026-10-25T02:30:00.000Z')
	})
})
