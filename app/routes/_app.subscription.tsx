import { getFormProps, getInputProps, useForm } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { data, redirect, type ActionFunctionArgs, type LinksFunction, type LoaderFunctionArgs } from 'react-router'
import { Form, useActionData, useLoaderData } from 'react-router'
import { useEffect } from 'react'
import { useTranslation } from '~/i18n/translation'
import { ConfirmAction } from '~/components/confirm-action'
import { Field, FormActions, FormAlert, FormSecurity, StatusButton, useIsPending } from '~/components/forms'
import { PageHeader } from '~/components/page-header'
import { Panel } from '~/components/panel'
import { BillingDetailsSchema, SubscribeSchema, type PackageView } from '~/domain/billing/subscription'
import { loadSubscriptionPage } from '~/domain/billing/subscription-page.server'
import { cancelSubscription, saveBillingDetails, subscribe } from '~/domain/billing/subscription.server'
import { getFixedT, getLanguage } from '~/i18n/i18n.server'
import { useLanguage } from '~/i18n/use-language'
import billingStyles from '~/styles/billing.css?url'
import { requireWorkshop } from '~/utils/auth.server'
import { validateCsrf } from '~/utils/csrf.server'
import { formatDate, formatMoney } from '~/utils/format'
import { routeMeta } from '~/utils/meta'
import { readForm } from '~/uploads/multipart.server'
import { decodeId } from '~/utils/public-id'
import { handleDomainError, or404 } from '~/utils/route-helpers.server'
import { FieldError } from '~/utils/errors'
import { redirectWithToast } from '~/utils/toast.server'
import { type AdsHandle } from '~/utils/ad-places'

export const links: LinksFunction = () => [{ rel: 'stylesheet', href: billingStyles }]

/** Spec §1, §3: the workshop's package, billing e-mail and invoices (docs/decisions/0060, 0061). */
export async function loader({ request }: LoaderFunctionArgs) {
	const { actor } = await requireWorkshop(request)
	const language = await getLanguage(request)
	const t = getFixedT(language, 'billing')
	return { meta: { title: t('metaTitle') }, ...(await loadSubscriptionPage(actor.workshopId, language)) }
}

export async function action({ request }: ActionFunctionArgs) {
	const { actor } = await requireWorkshop(request)
	const formData = await readForm(request)
	await validateCsrf(request, formData)
	const language = await getLanguage(request)
	const intent = formData.get('intent')

	if (intent === 'billingEmail') {
		const submission = parseWithZod(formData, { schema: BillingDetailsSchema })
		if (submission.status !== 'success') return data({ intent, result: submission.reply(), error: null }, { status: 400 })
		await saveBillingDetails(actor.workshopId, submission.value)
		return redirectWithToast('/subscription', { type: 'success', key: 'billing:billingEmail.saved' }, { request })
	}

	try {
		if (intent === 'cancel') {
			await or404(cancelSubscription(actor.workshopId))
			return redirectWithToast('/subscription', { type: 'success', key: 'billing:current.cancelledToast' }, { request })
		}
		const submission = parseWithZod(formData, { schema: SubscribeSchema })
		const packageId = submission.status === 'success' ? decodeId(submission.value.packageId) : null
		if (!packageId) throw new Response('Not found', { status: 404 })
		const outcome = await or404(subscribe(actor.workshopId, packageId))
		switch (outcome.kind) {
			case 'free':
				return redirectWithToast('/subscription', { type: 'success', key: 'billing:toast.subscribedFree' }, { request })
			case 'freeAfterPeriod':
				return redirectWithToast(
					'/subscription',
					{ type: 'info', key: 'billing:toast.freeAfterPeriod', params: { date: formatDate(outcome.periodEnd, language) } },
					{ request },
				)
			case 'resumed':
				return redirectWithToast('/subscription', { type: 'success', key: 'billing:toast.resumed' }, { request })
			case 'checkout':
				return redirect(outcome.url)
		}
	} catch (error) {
		// No billing e-mail yet: the refusal is shown at that field, as the billing form's own error.
		if (error instanceof FieldError && error.field === 'billingEmail') {
			const billing = parseWithZod(formData, { schema: BillingDetailsSchema })
			return handleDomainError(error, { as: 'form', submission: billing, data: { intent: 'billingEmail' as const, error: null, refusedSubscription: true } })
		}
		return handleDomainError(error, { as: 'data', data: (text) => ({ intent: 'subscribe' as const, result: null, error: text }) })
	}
}

export const meta = routeMeta<typeof loader>()

// Payment pages show no ads (app/utils/ad-places.ts, decision 0129).
export const handle: AdsHandle = { ads: false }

export default function SubscriptionPage() {
	const { t } = useTranslation('billing')
	const language = useLanguage()
	const { current, billingEmail, vatNumber, wantsEInvoice, packages, invoices, vatRatePercent } = useLoaderData<typeof loader>()
	const actionData = useActionData<typeof action>()
	const [form, fields] = useForm({
		id: 'billing-email',
		lastResult: actionData?.intent === 'billingEmail' ? actionData.result : undefined,
		defaultValue: { billingEmail: billingEmail ?? '', vatNumber: vatNumber ?? '', wantsEInvoice: wantsEInvoice ? 'on' : undefined },
		onValidate: ({ formData }) => parseWithZod(formData, { schema: BillingDetailsSchema }),
		shouldRevalidate: 'onInput',
	})
	// A package chosen before the billing e-mail: the field that says why gets the focus (and the view).
	const refusedSubscription = actionData && 'refusedSubscription' in actionData
	useEffect(() => {
		if (refusedSubscription) document.getElementById(fields.billingEmail.id)?.focus()
	}, [refusedSubscription, actionData, fields.billingEmail.id])
	const paidCurrent = current && !current.isFree
	return (
		<>
			<PageHeader title={t('title')} subtitle={t('intro')} />
			<div className="stack billing-page">
				<div className="billing-grid">
					<Panel id="current-plan-title" title={t('current.title')} className="panel current-plan">
						{current ? (
							<>
								<p className="current-plan__name">{current.name}</p>
								{paidCurrent && current.periodStart && current.periodEnd ? (
									<>
										<p>{t('current.period', { start: formatDate(current.periodStart, language), end: formatDate(current.periodEnd, language) })}</p>
										<p>
											{current.cancelAtPeriodEnd
												? t('current.cancelled', { date: formatDate(current.periodEnd, language) })
												: t('current.renews', { date: formatDate(current.periodEnd, language) })}
										</p>
										{current.cancelAtPeriodEnd ? null : (
											<ConfirmAction
												id="cancel-subscription"
												label={t('current.cancel')}
												title={t('current.cancel')}
												description={t('current.cancelConfirm')}
												confirmLabel={t('current.cancel')}
												fields={{ intent: 'cancel' }}
												triggerClassName="button button--danger-text"
												danger
											/>
										)}
									</>
								) : current.periodStart ? (
									<p>{t('current.since', { date: formatDate(current.periodStart, language) })}</p>
								) : null}
							</>
						) : (
							<p>{t('current.none')}</p>
						)}
					</Panel>
					<Panel id="billing-email-title" title={t('billingEmail.title')}>
						<Form method="post" className="form" {...getFormProps(form)}>
							<FormSecurity intent="billingEmail" />
							<Field
								label={t('billingEmail.label')}
								required
								help={t('billingEmail.help')}
								inputProps={{ ...getInputProps(fields.billingEmail, { type: 'email' }), autoComplete: 'email' }}
								errors={fields.billingEmail.errors}
							/>
							<Field
								label={t('billingEmail.vatNumber')}
								help={t('billingEmail.vatNumberHelp')}
								inputProps={{ ...getInputProps(fields.vatNumber, { type: 'text' }), autoComplete: 'off', maxLength: 40 }}
								errors={fields.vatNumber.errors}
							/>
							<div className="field">
								<label className="checkbox">
									<input {...getInputProps(fields.wantsEInvoice, { type: 'checkbox' })} aria-describedby="e-invoice-help" /> {t('billingEmail.eInvoice')}
								</label>
								<p id="e-invoice-help" className="field__help">
									{t('billingEmail.eInvoiceHelp')}
								</p>
							</div>
							<FormActions submit={t('billingEmail.save')} />
						</Form>
					</Panel>
				</div>

				<Panel id="packages-title" title={t('packages.title')}>
					<FormAlert id="subscribe-error" errors={actionData?.intent === 'subscribe' ? [actionData.error] : undefined} />
					<ul className="plans">
						{packages.map((pkg) => (
							<Plan key={pkg.id} pkg={pkg} />
						))}
					</ul>
					<p className="form-note">{t('packages.vatNote', { rate: vatRatePercent })}</p>
				</Panel>

				<Panel id="invoices-title" title={t('invoices.title')}>
					{invoices.length ? (
						<div className="table-scroll">
							<table className="table invoice-table">
								<thead>
									<tr>
										<th scope="col">{t('invoices.number')}</th>
										<th scope="col">{t('invoices.date')}</th>
										<th scope="col">{t('invoices.package')}</th>
										<th scope="col">{t('invoices.period')}</th>
										<th scope="col" className="table__number">
											{t('invoices.total')}
										</th>
										<th scope="col">
											<span className="visually-hidden">{t('invoices.download')}</span>
										</th>
									</tr>
								</thead>
								<tbody>
									{invoices.map((invoice) => (
										<tr key={invoice.id}>
											<th scope="row">{invoice.number}</th>
											<td data-label={t('invoices.date')}>{formatDate(invoice.createdAt, language)}</td>
											<td data-label={t('invoices.package')}>{invoice.packageName}</td>
											<td data-label={t('invoices.period')}>
												{formatDate(invoice.periodStart, language)} – {formatDate(invoice.periodEnd, language)}
											</td>
											<td className="table__number" data-label={t('invoices.total')}>
												{formatMoney(invoice.totalCents, language, invoice.currency)}
											</td>
											<td>
												<span className="invoice-files">
													{invoice.downloadUrl ? (
														<a href={invoice.downloadUrl} download={`invoice-${invoice.number}.pdf`} aria-label={`${t('invoices.download')}: ${t('invoices.downloadLabel', { number: invoice.number })}`}>
															{t('invoices.download')}
														</a>
													) : null}
													<a href={invoice.eInvoiceUrl} download={`invoice-${invoice.number}.xml`} aria-label={`${t('invoices.eInvoice')}: ${t('invoices.eInvoiceLabel', { number: invoice.number })}`}>
														{t('invoices.eInvoice')}
													</a>
												</span>
											</td>
										</tr>
									))}
								</tbody>
							</table>
						</div>
					) : (
						<p className="empty">{t('invoices.empty')}</p>
					)}
				</Panel>
			</div>
		</>
	)
}

function Plan({ pkg }: { pkg: PackageView }) {
	const { t } = useTranslation('billing')
	const language = useLanguage()
	const isPending = useIsPending()
	const classes = ['plan', pkg.featured ? 'plan--featured' : '', pkg.isCurrent ? 'plan--current' : ''].filter(Boolean).join(' ')
	return (
		<li className={classes}>
			<div className="plan__head">
				<h3 className="plan__name">{pkg.name}</h3>
				{pkg.isCurrent ? <span className="badge badge--pro">{t('packages.current')}</span> : null}
			</div>
			<p className="plan__price">{pkg.isFree ? t('packages.free') : t('packages.perMonth', { price: formatMoney(pkg.priceCents, language, pkg.currency) })}</p>
			{pkg.description ? <p className="plan__description">{pkg.description}</p> : null}
			<ul className="plan__features">
				<li>{pkg.offersPerMonth === null ? t('packages.unlimited') : t('packages.offers', { count: pkg.offersPerMonth })}</li>
				{pkg.featured ? <li>{t('packages.featured')}</li> : null}
			</ul>
			{/* The package one is on is not offered again; a cancelled paid one can be resumed. */}
			{pkg.canChoose ? (
				<Form method="post">
					<FormSecurity intent="subscribe" />
					<input type="hidden" name="packageId" value={pkg.id} />
					<StatusButton type="submit" status={isPending ? 'pending' : 'idle'} className={pkg.featured ? 'button--accent' : 'button--primary'} aria-label={t('packages.subscribeTo', { name: pkg.name })}>
						{t('packages.subscribe')}
					</StatusButton>
				</Form>
			) : null}
		</li>
	)
}
