import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from 'react-router'
import { Form, Link, useActionData, useLoaderData } from 'react-router'
import { EidButton } from '~/components/eid'
import { FormSecurity } from '~/components/forms'
import { PageHeader } from '~/components/page-header'
import { Panel } from '~/components/panel'
import { PasskeyConfirm } from '~/components/passkey-confirm'
import { linkedEid } from '~/domain/accounts/eid.server'
import { confirmWithPasskey, listPasskeys, passkeyAnswerOf, passkeysAvailable } from '~/domain/accounts/passkeys.server'
import { EMAILED_LINK_MINUTES, enrolmentLinkProblem, sendEnrolmentLink, redeemEnrolmentLink } from '~/domain/accounts/step-up.server'
import { getFixedT, getLanguage } from '~/i18n/i18n.server'
import { useTranslation } from '~/i18n/translation'
import { type AdsHandle } from '~/utils/ad-places'
import {
	ADMIN_CONFIRMATION_HOURS,
	hasSecondFactor,
	isConfirmedAdministrator,
	mayAddWayIn,
	redirectSignedIn,
	redirectToOf,
	requireUser,
	STEP_UP_PATH,
	wayOn,
} from '~/utils/auth.server'
import { clientIp } from '~/utils/client-ip.server'
import { validateCsrf } from '~/utils/csrf.server'
import { getEnv } from '~/utils/env.server'
import { routeMeta } from '~/utils/meta'
import { handleDomainError } from '~/utils/route-helpers.server'
import { REDIRECT_TO, wayBack, withRedirectTo } from '~/utils/safe-redirect'
import { redirectWithToast } from '~/utils/toast.server'
import { readForm } from '~/uploads/multipart.server'

/**
 * The administrator's step-up page (issue 36, part 4; decision 0156). Every administrator's page
 * sends an administrator here while their session was opened by a password alone (or was confirmed
 * more than 12 hours ago): they confirm it with their linked eID (a link to the provider, so it
 * works without JavaScript) or one of their passkeys, which replaces the session by a confirmed one
 * and goes on to the page they asked for. An account with neither, or whose owner lost them, asks
 * for a one-time link by e-mail; opened in this browser (`?link=`), it lets this session add a
 * passkey or link an eID, and then confirm with it. A password alone never reaches /admin.
 */
export async function loader({ request }: LoaderFunctionArgs) {
	const user = await requireUser(request, { role: 'admin', secondFactor: false })
	const redirectTo = redirectToOf(request)
	if (isConfirmedAdministrator(user)) throw redirect(onward(redirectTo))
	const t = getFixedT(await getLanguage(request), 'auth')
	const link = new URL(request.url).searchParams.get('link')
	const [eid, passkeys] = await Promise.all([linkedEid(user.id), listPasskeys(user.id)])
	const env = getEnv()
	return {
		meta: { title: t('stepUp.title') },
		redirectTo,
		email: user.email,
		// Confirmed once, more than 12 hours ago: the page says why it asks again.
		expired: hasSecondFactor(user),
		hours: ADMIN_CONFIRMATION_HOURS,
		minutes: EMAILED_LINK_MINUTES,
		// eID: offered when a provider is configured and this account has one linked.
		eid: env.eid ? { linked: Boolean(eid) } : null,
		// Passkeys: null where this address cannot have them (an IP), else how many the account has.
		passkeys: passkeysAvailable() ? passkeys.length : null,
		mayAddWayIn: mayAddWayIn(user),
		link: link ? { token: link, problem: await enrolmentLinkProblem(link, { userId: user.id, sessionId: user.sessionId }) } : null,
		// A portal that keeps its e-mails as files (the demo): the page says where the link is.
		emailsOnDisk: !env.SMTP_URL,
	}
}

/** Where a confirmed administrator goes: the page they asked for, or the administration's start. */
function onward(redirectTo: string | null) {
	return wayOn('admin', redirectTo ?? '/admin')
}

export async function action({ request, context }: ActionFunctionArgs) {
	const user = await requireUser(request, { role: 'admin', secondFactor: false })
	const formData = await readForm(request)
	await validateCsrf(request, formData)
	const redirectTo = wayBack(formData.get(REDIRECT_TO))
	const session = { userId: user.id, sessionId: user.sessionId }
	const here = withRedirectTo(STEP_UP_PATH, redirectTo)
	const intent = formData.get('intent')

	if (intent === 'passkey') {
		const answer = passkeyAnswerOf(formData)
		// Sent without JavaScript (no answer from the browser): the page says a passkey needs it.
		if (!answer) return data({ passkey: 'auth:stepUp.passkeyNeedsJavaScript' }, { status: 400 })
		try {
			const token = await confirmWithPasskey(session, answer, clientIp(context))
			return redirectSignedIn(request, token, onward(redirectTo), 'auth:stepUp.confirmed')
		} catch (error) {
			return handleDomainError(error, { as: 'data', data: (text) => ({ passkey: text }) })
		}
	}

	if (intent === 'send-link') {
		try {
			const { email } = await sendEnrolmentLink(session, await getLanguage(request))
			return redirectWithToast(here, { type: 'success', key: 'auth:stepUp.linkSent', params: { email } }, { request })
		} catch (error) {
			return handleDomainError(error, { as: 'toast', redirectTo: here, request })
		}
	}

	if (intent === 'use-link') {
		try {
			const token = await redeemEnrolmentLink(String(formData.get('link') ?? ''), session)
			return redirectSignedIn(request, token, here, 'auth:stepUp.linkUsed')
		} catch (error) {
			return handleDomainError(error, { as: 'toast', redirectTo: here, request })
		}
	}
	return redirect(here)
}

export const meta = routeMeta<typeof loader>()

// A sign-in page: no ads (app/utils/ad-places.ts, decision 0129).
export const handle: AdsHandle = { ads: false }

export default function StepUpPage() {
	const { t } = useTranslation('auth')
	const { redirectTo, email, expired, hours, minutes, eid, passkeys, mayAddWayIn, link, emailsOnDisk } = useLoaderData<typeof loader>()
	const actionData = useActionData<typeof action>()
	const canUseEid = Boolean(eid?.linked)
	const canUsePasskey = Boolean(passkeys)
	const back = redirectTo ?? '/admin'
	return (
		<>
			<PageHeader title={t('stepUp.title')} subtitle={t('stepUp.lead')} />
			<div className="settings-grid step-up">
				{link ? (
					<Panel id="step-up-link" title={t('stepUp.useTitle')} className="card">
						{link.problem ? (
							<div className="form-alert" role="alert">
								<p>{t(link.problem)}</p>
							</div>
						) : (
							<Form method="post" className="form">
								<FormSecurity intent="use-link" />
								<input type="hidden" name="link" value={link.token} />
								{redirectTo ? <input type="hidden" name={REDIRECT_TO} value={redirectTo} /> : null}
								<p>{t('stepUp.useText')}</p>
								<div className="form-actions">
									<button type="submit" className="button button--primary">
										{t('stepUp.useLink')}
									</button>
								</div>
							</Form>
						)}
					</Panel>
				) : null}
				{mayAddWayIn ? (
					<Panel id="step-up-add" title={t('stepUp.addTitle')} className="card">
						<p>{t('stepUp.addText')}</p>
						{passkeys === null ? <p className="form-note">{t('account:passkeys.unavailable')}</p> : null}
						<div className="step-up__choices">
							{passkeys !== null ? (
								<Link to="/settings/passkeys" className="button button--primary">
									{t('stepUp.addPasskey')}
								</Link>
							) : null}
							{eid && !eid.linked ? <EidButton href={withRedirectTo('/eid/start?purpose=link', back)} label={t('stepUp.linkEid')} /> : null}
						</div>
					</Panel>
				) : null}
				<Panel id="step-up-confirm" title={t('stepUp.confirmTitle')} className="card">
					{expired ? <p className="form-note">{t('stepUp.expired', { hours })}</p> : null}
					{canUseEid || canUsePasskey ? (
						<div className="step-up__choices">
							{canUseEid ? <EidButton href={withRedirectTo('/eid/start?purpose=confirm', back)} label={t('stepUp.withEid')} /> : null}
							{canUsePasskey ? (
								<PasskeyConfirm intent="passkey" label={t('stepUp.withPasskey')} redirectTo={redirectTo} error={actionData?.passkey} />
							) : null}
						</div>
					) : (
						<p data-testid="step-up-nothing-yet">{t(mayAddWayIn ? 'stepUp.addFirst' : 'stepUp.nothingYet')}</p>
					)}
				</Panel>
				<Panel id="step-up-email" title={t(canUseEid || canUsePasskey ? 'stepUp.lostTitle' : 'stepUp.emailTitle')} className="card">
					<Form method="post" className="form">
						<FormSecurity intent="send-link" />
						{redirectTo ? <input type="hidden" name={REDIRECT_TO} value={redirectTo} /> : null}
						<p>{t('stepUp.emailText', { email, minutes })}</p>
						{emailsOnDisk ? <p className="form-note">{t('stepUp.emailsOnDisk')}</p> : null}
						<div className="form-actions">
							<button type="submit" className="button button--ghost">
								{t('stepUp.sendLink')}
							</button>
						</div>
					</Form>
				</Panel>
			</div>
		</>
	)
}
