import { getFormProps, getInputProps, useForm } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { data, type ActionFunctionArgs, type LoaderFunctionArgs } from 'react-router'
import { Form, Link, useActionData, useLoaderData } from 'react-router'
import { useEffect } from 'react'
import { useTranslation } from '~/i18n/translation'
import { AskingWorkshopNote, AuthPanel } from '~/components/auth-panel'
import { EidChoice, PendingEidNote } from '~/components/eid'
import { Field, FormActions, FormAlert, FormSecurity } from '~/components/forms'
import { LoginSchema } from '~/domain/accounts/accounts'
import { accountErrorHeaders, accountErrorMessage, authenticate, openSession } from '~/domain/accounts/accounts.server'
import { linkEid } from '~/domain/accounts/eid.server'
import { workshopOnTheWay } from '~/domain/service-flow/requests.server'
import { getFixedT, getLanguage, languageCookie } from '~/i18n/i18n.server'
import { eidCookieHeader, pendingEid } from '~/identity/eid-cookie.server'
import { redirectSignedIn, redirectToOf, requireAnonymous, wayOn } from '~/utils/auth.server'
import { clientIp } from '~/utils/client-ip.server'
import { validateCsrf } from '~/utils/csrf.server'
import { getEnv } from '~/utils/env.server'
import { DomainError } from '~/utils/errors'
import { combineHeaders } from '~/utils/http'
import { routeMeta } from '~/utils/meta'
import { pageSeo } from '~/utils/seo.server'
import { readForm } from '~/uploads/multipart.server'
import { REDIRECT_TO, wayBack, withRedirectTo } from '~/utils/safe-redirect'
import { autofillAvailable, cancelPasskeyCeremony, usePasskeySupport } from '~/components/passkeys'
import { PasskeyPostForm, passkeyFailureText, usePasskeyPost } from '~/components/passkey-form'
import { passkeyAnswerOf, passkeysAvailable, signInWithPasskey } from '~/domain/accounts/passkeys.server'
import { handleDomainError } from '~/utils/route-helpers.server'
import { message } from '~/utils/messages'
import { type AdsHandle } from '~/utils/ad-places'

export async function loader({ request }: LoaderFunctionArgs) {
	await requireAnonymous(request)
	const language = await getLanguage(request)
	const t = getFixedT(language, 'auth')
	const redirectTo = redirectToOf(request)
	const pending = getEnv().eid ? await pendingEid(request) : null
	return {
		meta: pageSeo(request, language, { title: t('login.metaTitle'), description: t('login.metaDescription') }),
		redirectTo,
		// eID (decision 0150): the button when a provider is configured; after an eID no account has, its person to link.
		eid: Boolean(getEnv().eid),
		pendingEid: pending ? { firstName: pending.firstName, lastName: pending.lastName, role: pending.role } : null,
		// "Ask for an offer" on a workshop's page: the page says whom the request is for.
		askingWorkshop: (await workshopOnTheWay(redirectTo))?.name ?? null,
		// Passkeys need the portal's address to be a host name (decision 0151): nothing of them shows otherwise.
		passkeys: passkeysAvailable(),
	}
}

export async function action({ request, context }: ActionFunctionArgs) {
	await requireAnonymous(request)
	const formData = await readForm(request)
	await validateCsrf(request, formData)
	if (formData.get('intent') === 'passkey') return passkeySignIn(request, formData, clientIp(context))
	const submission = parseWithZod(formData, { schema: LoginSchema })
	if (submission.status !== 'success') {
		return data({ result: submission.reply({ hideFields: ['password'] }) }, { status: 400 })
	}
	const result = await authenticate({ ...submission.value, ip: clientIp(context) })
	if (!result.ok) {
		const formErrors = [accountErrorMessage(result.error)]
		return data({ result: submission.reply({ formErrors, hideFields: ['password'] }) }, { status: result.error.status, headers: accountErrorHeaders(result.error) })
	}
	const { user } = result
	const token = await openSession({ userId: user.id, kind: 'web', userAgent: request.headers.get('User-Agent'), method: 'password' })
	// The interface speaks the language the user chose in their settings.
	const language = user.preferredLanguage ? { 'Set-Cookie': await languageCookie.serialize(user.preferredLanguage) } : undefined
	const onward = wayOn(user.role, wayBack(formData.get(REDIRECT_TO)))
	// An eID verified a moment ago that no account had: the account's password links it (decision 0150).
	const pending = getEnv().eid ? await pendingEid(request) : null
	if (!pending) return redirectSignedIn(request, token, onward, 'auth:login.success', language)
	const cleared = combineHeaders(language, { 'Set-Cookie': await eidCookieHeader(null) })
	try {
		await linkEid(user.id, pending)
		return redirectSignedIn(request, token, onward, 'auth:eid.linkedAfterPassword', cleared)
	} catch (error) {
		// Signed in all the same; the eID stays unlinked, and the toast says why.
		if (error instanceof DomainError) return redirectSignedIn(request, token, onward, { type: 'warning', key: error.key }, cleared)
		throw error
	}
}

/** A passkey's answer (issue 36): the account it opens is signed in as a password would sign it in. */
async function passkeySignIn(request: Request, formData: FormData, ip: string) {
	const answer = passkeyAnswerOf(formData)
	if (!answer) return data({ passkey: message('auth:passkey.refused') }, { status: 400 })
	let user: Awaited<ReturnType<typeof signInWithPasskey>>
	try {
		user = await signInWithPasskey(answer, ip)
	} catch (error) {
		return handleDomainError(error, { as: 'data', data: (text) => ({ passkey: text }) })
	}
	const token = await openSession({ userId: user.id, kind: 'web', userAgent: request.headers.get('User-Agent'), method: 'passkey' })
	const language = user.preferredLanguage ? { 'Set-Cookie': await languageCookie.serialize(user.preferredLanguage) } : undefined
	return redirectSignedIn(request, token, wayOn(user.role, wayBack(formData.get(REDIRECT_TO))), 'auth:login.success', language)
}

export const meta = routeMeta<typeof loader>()

// Sign-in forms show no ads (app/utils/ad-places.ts, decision 0129).
export const handle: AdsHandle = { ads: false }

export default function LoginPage() {
	const { t } = useTranslation('auth')
	const { redirectTo, askingWorkshop, eid, pendingEid, passkeys } = useLoaderData<typeof loader>()
	const actionData = useActionData<typeof action>()
	const [form, fields] = useForm({
		id: 'login',
		lastResult: actionData && 'result' in actionData ? actionData.result : undefined,
		onValidate: ({ formData }) => parseWithZod(formData, { schema: LoginSchema }),
		// Errors clear while the user types, so nothing shifts under the pointer when they click submit.
		shouldRevalidate: 'onInput',
	})

	return (
		<AuthPanel
			title={t('login.title')}
			subtitle={t('login.subtitle')}
			aside={
				<>
					<h2>{t('login.asideTitle')}</h2>
					<ul className="check-list">
						<li>{t('login.asideOne')}</li>
						<li>{t('login.asideTwo')}</li>
						<li>{t('login.asideThree')}</li>
					</ul>
				</>
			}
		>
			{askingWorkshop ? (
				<AskingWorkshopNote title={t('askFor.title', { workshop: askingWorkshop })} text={t('askFor.login', { workshop: askingWorkshop })} />
			) : null}
			{pendingEid ? (
				<PendingEidNote
					title={t('eid.linkTitle', { name: `${pendingEid.firstName} ${pendingEid.lastName}` })}
					text={t('eid.linkText')}
					other={{ to: withRedirectTo(`/register?role=${pendingEid.role}`, redirectTo), label: t('eid.registerInstead') }}
					back="/login"
				/>
			) : eid ? (
				<EidChoice href={withRedirectTo('/eid/start?purpose=login', redirectTo)} intro={t('eid.loginIntro')} />
			) : null}
			<Form method="post" className="form" {...getFormProps(form)}>
				<FormSecurity />
				{redirectTo ? <input type="hidden" name={REDIRECT_TO} value={redirectTo} /> : null}
				<FormAlert id={form.errorId} errors={form.errors} />
				<Field
					label={t('login.email')}
					required
					// "webauthn": the browser may offer the person's passkeys among the e-mail's suggestions.
					inputProps={{ ...getInputProps(fields.email, { type: 'email' }), autoComplete: 'email webauthn' }}
					errors={fields.email.errors}
				/>
				<Field
					label={t('login.password')}
					required
					inputProps={{ ...getInputProps(fields.password, { type: 'password' }), autoComplete: 'current-password' }}
					errors={fields.password.errors}
				/>
				<FormActions submit={t('login.submit')} large className="form-actions--spread">
					<Link to="/forget-password">{t('login.forgot')}</Link>
				</FormActions>
			</Form>
			{passkeys ? <PasskeySignIn redirectTo={redirectTo} error={actionData && 'passkey' in actionData ? actionData.passkey : undefined} /> : null}
			<p className="auth__switch">
				{t('login.noAccount')} <Link to={withRedirectTo('/register', redirectTo)}>{t('login.registerLink')}</Link>
			</p>
		</AuthPanel>
	)
}

/**
 * "Sign in with a passkey" (issue 36): shown once the page runs in a browser that can use
 * passkeys; the browser's answer is posted to this page's action with intent `passkey`. Where the
 * browser offers passkeys among the e-mail field's suggestions, a sign-in waits there from the start.
 */
function PasskeySignIn({ redirectTo, error }: { redirectTo: string | null; error?: string }) {
	const { t } = useTranslation('auth')
	const supported = usePasskeySupport()
	// A ceremony the person cancelled, one a click replaced, or the suggestions' quiet one says nothing.
	const { formRef, problem, busy, run } = usePasskeyPost('passkey', 'sign-in', (failure, autofill) => (autofill ? null : passkeyFailureText(failure)))

	useEffect(() => {
		if (!supported) return
		let left = false
		void autofillAvailable().then((yes) => {
			if (yes && !left) void run(true)
		})
		return () => {
			left = true
			void cancelPasskeyCeremony()
		}
	}, [supported, run])

	if (!supported) return null
	return (
		<PasskeyPostForm formRef={formRef} intent="passkey" redirectTo={redirectTo} problem={problem} error={error} className="passkey-sign-in">
			<p className="passkey-sign-in__or">{t('passkey.or')}</p>
			<button type="button" className="button button--ghost button--large passkey-sign-in__button" disabled={busy} onClick={() => void run(false)}>
				{t('passkey.signIn')}
			</button>
		</PasskeyPostForm>
	)
}
