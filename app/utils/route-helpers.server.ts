import { type SubmissionResult } from '@conform-to/react'
import { data } from 'react-router'
import { DomainError, FieldError } from '~/utils/errors'
import { type Language } from '~/i18n/config'
import { getFixedT } from '~/i18n/i18n.server'
import { apiError } from './api.server'
import { domainErrorHeaders } from './failures.server'
import { message, translateMessage } from './messages'
import { decodeId } from './public-id'
import { redirectWithToast } from './toast.server'

/** The id in a route's {slug}/{id}; a value that does not decode is a 404. */
export function idParam(value: string | undefined): string {
	const id = decodeId(value)
	if (!id) throw new Response('Not found', { status: 404 })
	return id
}

/** A domain "not found" (missing, or someone else's) as the 404 page. */
export async function or404<T>(promise: Promise<T>): Promise<T> {
	try {
		return await promise
	} catch (error) {
		if (error instanceof DomainError && error.status === 404) throw new Response('Not found', { status: 404 })
		throw error
	}
}

/**
 * A refused domain move as the form's reply options: next to `field` when given, else next to the
 * field a `FieldError` names, else above the form.
 */
export function domainErrorReply(error: DomainError, field?: string) {
	const text = message(error.key, error.params)
	const target = field ?? (error instanceof FieldError ? error.field : null)
	return target ? { fieldErrors: { [target]: [text] } } : { formErrors: [text] }
}

/** What `submission.reply()` takes: a Conform submission of any schema. */
type Replyable = { reply(options?: { formErrors?: string[]; fieldErrors?: Record<string, string[]>; hideFields?: string[] }): SubmissionResult<string[]> }

/** How a route answers a refused domain move (`handleDomainError`). */
export type DomainErrorAnswer =
	/**
	 * A Conform form: the page again, the text next to its field or above the form; `data` travels
	 * along; `hideFields` (a password) are not sent back.
	 */
	| { as: 'form'; submission: Replyable; field?: string; data?: Record<string, unknown>; hideFields?: string[] }
	/** A button or a form without Conform: the page again with `data(text)` as the action's data. */
	| { as: 'data'; data: (text: string) => unknown }
	/** A button that posts and goes back: a redirect with an error toast. */
	| { as: 'toast'; redirectTo: string; request: Request }
	/** The JSON API: `{ status, message }` in the caller's language (`cors` for the calls the widgets make). */
	| { as: 'json'; language: Language; cors?: boolean }

type FormReply = { result: SubmissionResult<string[]> }

/**
 * Turns a refused domain move (`DomainError`, app/utils/errors.ts) into the answer the caller
 * expects, with the error's status (and `Retry-After` for a rate limit); anything else is thrown
 * again. Every route answers refusals through this one function:
 *
 *     try { await or404(move(...)) } catch (error) { return handleDomainError(error, { as: 'form', submission }) }
 */
export function handleDomainError<Extra extends Record<string, unknown> = Record<never, never>>(
	error: unknown,
	how: { as: 'form'; submission: Replyable; field?: string; data?: Extra; hideFields?: string[] },
): ReturnType<typeof data<Extra & FormReply>>
export function handleDomainError<T>(error: unknown, how: { as: 'data'; data: (text: string) => T }): ReturnType<typeof data<T>>
export function handleDomainError(error: unknown, how: { as: 'toast'; redirectTo: string; request: Request }): Promise<Response>
export function handleDomainError(error: unknown, how: { as: 'json'; language: Language; cors?: boolean }): Response
export function handleDomainError(error: unknown, how: DomainErrorAnswer): unknown {
	if (!(error instanceof DomainError)) throw error
	const init = { status: error.status, headers: domainErrorHeaders(error) }
	switch (how.as) {
		case 'form':
			return data({ ...how.data, result: how.submission.reply({ ...domainErrorReply(error, how.field), hideFields: how.hideFields }) }, init)
		case 'data':
			return data(how.data(message(error.key, error.params)), init)
		case 'toast':
			return redirectWithToast(how.redirectTo, { type: 'error', key: error.key, params: error.params }, { request: how.request })
		case 'json':
			return apiError(error.status, translateMessage(getFixedT(how.language, 'common'), message(error.key, error.params)), { headers: init.headers, cors: how.cors })
	}
}
