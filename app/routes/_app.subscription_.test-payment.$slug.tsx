import { redirect, type ActionFunctionArgs, type LinksFunction, type LoaderFunctionArgs } from 'react-router'
import { Form, Link, useLoaderData } from 'react-router'
import { useTranslation } from '~/i18n/translation'
import { FormSecurity, StatusButton, useIsPending } from '~/components/forms'
import { cancelTestPayment, findPendingTestPayment, payTestPayment } from '~/domain/billing/subscription.server'
import { getFixedT, getLanguage } from '~/i18n/i18n.server'
import { useLanguage } from '~/i18n/use-language'
import billingStyles from '~/styles/billing.css?url'
import { requireWorkshop } from '~/utils/auth.server'
import { validateCsrf } from '~/utils/csrf.server'
import { formatMoney } from '~/utils/format'
import { routeMeta } from '~/utils/meta'
import { readForm } from '~/uploads/multipart.server'
import { idParam, or404 } from '~/utils/route-helpers.server'
import { redirectWithToast } from '~/utils/toast.server'
import { type AdsHandle } from '~/utils/ad-places'

export const links: LinksFunction = () => [{ rel: 'stylesheet', href: billingStyles }]

/**
 * The built-in test payment provider's page (docs/decisions/0060): clearly marked, with pay and
 * cancel buttons, plain forms. Only the workshop that started the payment sees it.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
	const { actor } = await requireWorkshop(request)
	const row = await findPendingTestPayment(actor.workshopId, idParam(params.slug))
	if (!row) throw new Response('Not found', { status: 404 })
	const language = await getLanguage(request)
	const t = getFixedT(language, 'billing')
	const name = language === 'en' ? row.pkg.nameEn : language === 'ru' ? row.pkg.nameRu : row.pkg.nameEt
	return {
		meta: { title: t('testPayment.metaTitle') },
		open: row.open,
		packageName: name,
		amountCents: row.payment.amountCents,
		currency: row.payment.currency,
	}
}

export async function action({ request, params }: ActionFunctionArgs) {
	const { actor } = await requireWorkshop(request)
	const formData = await readForm(request)
	await validateCsrf(request, formData)
	const paymentId = idParam(params.slug)
	if (formData.get('intent') === 'cancel') {
		await or404(cancelTestPayment(actor.workshopId, paymentId))
		return redirectWithToast('/subscription', { type: 'info', key: 'billing:toast.paymentCancelled' }, { request })
	}
	const result = await or404(payTestPayment(actor.workshopId, paymentId))
	if (result.outcome === 'unknown') throw new Response('Not found', { status: 404 })
	// A second click on a paid payment thanks again; a replaced or cancelled one does not.
	if (result.outcome === 'duplicate' && !(await findPendingTestPayment(actor.workshopId, paymentId))?.paid) {
		return redirectWithToast('/subscription', { type: 'error', key: 'billing:errors.paymentClosed' }, { request })
	}
	return redirect('/thank-you')
}

export const meta = routeMeta<typeof loader>()

// Payment pages show no ads (app/utils/ad-places.ts, decision 0129).
export const handle: AdsHandle = { ads: false }

export default function TestPaymentPage() {
	const { t } = useTranslation('billing')
	const language = useLanguage()
	const { open, packageName, amountCents, currency } = useLoaderData<typeof loader>()
	const isPending = useIsPending()
	const amount = formatMoney(amountCents, language, currency)
	return (
		<section className="panel test-payment" aria-labelledby="test-payment-title">
			<p className="test-payment__badge">{t('testPayment.badge')}</p>
			<h1 id="test-payment-title">{t('testPayment.title')}</h1>
			<p className="notice">{t('testPayment.notice')}</p>
			<dl className="test-payment__facts">
				<dt>{t('testPayment.package')}</dt>
				<dd>{packageName}</dd>
				<dt>{t('testPayment.amount')}</dt>
				<dd>{amount}</dd>
			</dl>
			{open ? (
				<div className="test-payment__actions">
					<Form method="post">
						<FormSecurity intent="pay" />
						<StatusButton type="submit" status={isPending ? 'pending' : 'idle'} className="button--primary button--large">
							{t('testPayment.pay', { amount })}
						</StatusButton>
					</Form>
					<Form method="post">
						<FormSecurity intent="cancel" />
						<button type="submit" className="button button--ghost button--large">
							{t('testPayment.cancel')}
						</button>
					</Form>
				</div>
			) : (
				<p>
					{t('testPayment.done')} <Link to="/subscription">{t('title')}</Link>
				</p>
			)}
		</section>
	)
}
