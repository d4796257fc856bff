import { describe, expect, test } from 'vitest'
import { decodeId, encodeId } from '~/utils/public-id'

describe('route ids', () => {
	const id = '3f2a9c1e-7b4d-4e2a-9f10-0c5d8e6b7a21'

	test('are the base64url encoding of the public id, as Node encodes it', () => {
		expect(encodeId(id)).toBe(Buffer.from(id).toString('base64url'))
		expect(encodeId(id)).not.toMatch(/[+/=]/)
	})

	test('decode back to the public id', () => {
		expect(decodeId(encodeId(id))).toBe(id)
	})

	test("accept standard base64 from a client's btoa(received_id)", () => {
		expect(decodeId(btoa(id))).toBe(id)
		expect(decodeId(Buffer.from(id).toString('base64'))).toBe(id)
	})

	test('turn anything that is not an encoded UUID into null (a 404)', () => {
		for (const slug of ['', 'abc', '1', '42', encodeId('not-a-uuid'), Buffer.from('1').toString('base64url'), '../etc/passwd', 'x'.repeat(500), '%00']) {
			expect(decodeId(slug), slug).toBeNull()
		}
		expect(decodeId(undefined)).toBeNull()
	})

	test('never expose a sequential number', () => {
		expect(decodeId(encodeId('00000000-0000-0000-0000-000000000001'))).toBe('00000000-0000-0000-0000-000000000001')
		expect(decodeId(Buffer.from('1').toString('base64url'))).toBeNull()
	})
})
