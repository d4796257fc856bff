/**
 * Passkeys in the browser (issue 36, docs/decisions/0151): the WebAuthn ceremonies through
 * `@simplewebauthn/browser`, loaded only when a ceremony starts so pages without one ship none
 * of it. The ceremony's answer goes to the page's own action in an ordinary form post, so the
 * server signs in or stores the passkey and redirects as any form does. Without JavaScript or
 * WebAuthn nothing of this shows (a passkey needs both): the password remains.
 */
import { useEffect, useState } from 'react'

/** True once the page has hydrated in a browser that can use passkeys. */
export function usePasskeySupport(): boolean {
	const [supported, setSupported] = useState(false)
	useEffect(() => {
		setSupported(typeof window !== 'undefined' && typeof window.PublicKeyCredential === 'function')
	}, [])
	return supported
}

/** Whether the browser offers passkeys in the e-mail field's suggestions (conditional mediation). */
export async function autofillAvailable(): Promise<boolean> {
	try {
		return (await window.PublicKeyCredential?.isConditionalMediationAvailable?.()) === true
	} catch {
		return false
	}
}

/** The error text a failed ceremony shows: the server's (translated), or null when the person cancelled it. */
export class PasskeyError extends Error {
	constructor(
		message: string,
		public readonly cancelled = false,
	) {
		super(message)
	}
}

/** `add` a passkey, `sign-in` with any, or `confirm` a signed-in session with one of the person's own (decision 0156). */
export type CeremonyPurpose = 'add' | 'sign-in' | 'confirm'

async function optionsFor(purpose: CeremonyPurpose, form: HTMLFormElement) {
	const body = new FormData()
	body.set('purpose', purpose)
	const csrf = form.querySelector<HTMLInputElement>('input[name="csrf"]')?.value
	if (csrf) body.set('csrf', csrf)
	const response = await fetch('/resources/passkey-options', { method: 'POST', body, headers: { Accept: 'application/json' } })
	const json = (await response.json().catch(() => null)) as { message?: string } | null
	if (!response.ok) throw new PasskeyError(json?.message ?? response.statusText)
	return json as never
}

/**
 * Runs a ceremony and returns the browser's answer as JSON for the form's `credential` field.
 * `autofill`: a sign-in waiting in the e-mail field's suggestions (it ends when another starts).
 */
export async function passkeyCeremony(purpose: CeremonyPurpose, form: HTMLFormElement, options: { autofill?: boolean } = {}): Promise<string> {
	const webauthn = await import('@simplewebauthn/browser')
	const optionsJSON = await optionsFor(purpose, form)
	try {
		const answer =
			purpose === 'add'
				? await webauthn.startRegistration({ optionsJSON })
				: await webauthn.startAuthentication({ optionsJSON, useBrowserAutofill: options.autofill === true })
		return JSON.stringify(answer)
	} catch (error) {
		const name = (error as { name?: string; cause?: { name?: string } })?.cause?.name ?? (error as { name?: string })?.name
		throw new PasskeyError(String((error as Error)?.message ?? error), name === 'NotAllowedError' || name === 'AbortError')
	}
}

/** Ends a waiting ceremony (the page is left). */
export async function cancelPasskeyCeremony() {
	const webauthn = await import('@simplewebauthn/browser')
	webauthn.WebAuthnAbortService.cancelCeremony()
}
