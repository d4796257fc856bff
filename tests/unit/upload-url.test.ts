import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { parseUploadQuery, publicUploadUrl, VARIANT_FORMATS, type UploadVariant } from '~/uploads/upload-url'

const queryOf = (url: string) => new URL(url, 'http://portal.test').searchParams

describe('an upload address and what it asks for', () => {
	test('every address publicUploadUrl makes is read back as what it was made for', () => {
		const variant = fc.record(
			{ width: fc.integer({ min: 1, max: 99999 }), format: fc.constantFrom(...VARIANT_FORMATS), version: fc.stringMatching(/^[0-9a-f]{12}$/) },
			{ requiredKeys: ['width', 'format'] },
		)
		fc.assert(
			fc.property(variant, (asked: UploadVariant) => {
				expect(parseUploadQuery(queryOf(publicUploadUrl('AbC-12_x', asked)))).toEqual(asked)
			}),
		)
		expect(parseUploadQuery(queryOf(publicUploadUrl('AbC-12_x')))).toBe('original')
		expect(parseUploadQuery(queryOf(publicUploadUrl('AbC-12_x', 'thumb')))).toBe('thumb')
	})

	test('a copy asked for by half, in an unknown format or at a width that is no number is nothing', () => {
		for (const query of ['?w=640', '?f=avif', '?w=640&f=gif', '?w=-1&f=webp', '?w=6.4&f=webp', '?w=123456&f=avif', '?w=&f=avif', '?w=640&f=AVIF'])
			expect(parseUploadQuery(queryOf(`/uploads/x${query}`)), query).toBeNull()
	})
})
