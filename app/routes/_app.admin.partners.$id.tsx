import { getFormProps, useForm } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { data, type ActionFunctionArgs, type LoaderFunctionArgs } from 'react-router'
import { Form, useActionData, useLoaderData } from 'react-router'
import { useTranslation } from '~/i18n/translation'
import { ButtonLink } from '~/components/button-link'
import { FormActions, FormAlert, FormSecurity } from '~/components/forms'
import { PageHeader } from '~/components/page-header'
import { Panel } from '~/components/panel'
import { PartnerFields } from '~/components/partner-fields'
import { getPartner, revokePartner, updatePartner } from '~/domain/partners/partner-admin.server'
import { partnerFigures } from '~/domain/partners/partner-figures.server'
import { originsText, partnerFigureKinds, PartnerSchema } from '~/domain/partners/partners'
import { getFixedT, getLanguage } from '~/i18n/i18n.server'
import { useLanguage } from '~/i18n/use-language'
import { requireUser } from '~/utils/auth.server'
import { validateCsrf } from '~/utils/csrf.server'
import { BadRequest } from '~/utils/failures.server'
import { formatDate, formatNumber, formatShortDay } from '~/utils/format'
import { routeMeta } from '~/utils/meta'
import { readForm } from '~/uploads/multipart.server'
import { handleDomainError, idParam, or404 } from '~/utils/route-helpers.server'
import { redirectWithToast } from '~/utils/toast.server'

/** /admin/partners/{id} (issue 37, decision 0154): a partner's key and limits, changing them, revoking it, its figures. */
export async function loader({ request, params }: LoaderFunctionArgs) {
	await requireUser(request, { role: 'admin' })
	const partnerId = idParam(params.id)
	const [partner, figures] = await Promise.all([getPartner(partnerId), partnerFigures(partnerId)])
	if (!partner) throw new Response('Not found', { status: 404 })
	const language = await getLanguage(request)
	const t = getFixedT(language, 'admin')
	return {
		meta: { title: `${partner.name} · ${t('partners.title')}` },
		partner,
		// Days in the reader's language, formatted here: the table hydrates without the browser's ICU data.
		figures: { totals: figures.totals, days: figures.days.map((row) => ({ ...row, label: formatShortDay(row.day, language) })) },
	}
}

export async function action({ request, params }: ActionFunctionArgs) {
	const admin = await requireUser(request, { role: 'admin' })
	const formData = await readForm(request)
	await validateCsrf(request, formData)
	const partnerId = idParam(params.id)
	const here = new URL(request.url).pathname
	const intent = formData.get('intent')

	if (intent === 'revoke') {
		await or404(revokePartner(admin.id, partnerId))
		return redirectWithToast(here, { type: 'success', key: 'admin:partners.revokedToast' }, { request })
	}
	if (intent === 'update') {
		const submission = parseWithZod(formData, { schema: PartnerSchema })
		if (submission.status !== 'success') return data({ result: submission.reply() }, { status: 400 })
		try {
			await or404(updatePartner(admin.id, partnerId, submission.value))
		} catch (error) {
			return handleDomainError(error, { as: 'form', submission })
		}
		return redirectWithToast(here, { type: 'success', key: 'admin:partners.saved' }, { request })
	}
	throw new BadRequest(400)
}

export const meta = routeMeta<typeof loader>()

export default function AdminPartnerPage() {
	const { t } = useTranslation('admin')
	const language = useLanguage()
	const { partner, figures } = useLoaderData<typeof loader>()
	const actionData = useActionData<typeof action>()
	const [form, fields] = useForm({
		id: 'partner-edit',
		lastResult: actionData?.result,
		defaultValue: { name: partner.name, origins: originsText(partner.allowedOrigins), rateLimitPerMinute: String(partner.rateLimitPerMinute) },
		onValidate: ({ formData }) => parseWithZod(formData, { schema: PartnerSchema }),
		shouldRevalidate: 'onInput',
	})
	return (
		<>
			<PageHeader
				title={partner.name}
				actions={
					<ButtonLink to="/admin/partners" kind="ghost" size="small">
						{t('partners.back')}
					</ButtonLink>
				}
			/>
			<div className="admin-grid">
				<Panel id="partner-facts-title" title={t('partners.facts')} className="card">
					<dl className="admin-facts">
						<dt>{t('partners.key')}</dt>
						<dd className="admin-code">{partner.keyPrefix}…</dd>
						<dt>{t('partners.origins')}</dt>
						<dd>
							<ul className="partner-origins">
								{partner.allowedOrigins.map((origin) => (
									<li key={origin} className="admin-code">
										{origin}
									</li>
								))}
							</ul>
						</dd>
						<dt>{t('partners.rateLimit')}</dt>
						<dd>{formatNumber(partner.rateLimitPerMinute, language)}</dd>
						<dt>{t('partners.created')}</dt>
						<dd>{formatDate(partner.createdAt, language)}</dd>
						<dt>{t('partners.state')}</dt>
						<dd>
							{partner.revokedAt ? (
								<span className="badge admin-badge--inactive">{t('partners.revokedOn', { date: formatDate(partner.revokedAt, language) })}</span>
							) : (
								t('partners.active')
							)}
						</dd>
					</dl>
					{partner.revokedAt ? null : (
						<Form method="post" className="form admin-danger">
							<FormSecurity intent="revoke" />
							<h3 id="partner-revoke-title">{t('partners.revokeTitle')}</h3>
							<p id="partner-revoke-text">{t('partners.revokeText')}</p>
							<button type="submit" className="button button--danger" aria-describedby="partner-revoke-text">
								{t('partners.revokeSubmit')}
							</button>
						</Form>
					)}
				</Panel>
				{partner.revokedAt ? null : (
					<Panel id="partner-edit-title" title={t('partners.editTitle')} className="card">
						<Form method="post" className="form" {...getFormProps(form)}>
							<FormSecurity intent="update" />
							<FormAlert id={form.errorId} errors={form.errors} />
							<PartnerFields fields={fields} />
							<FormActions submit={t('partners.editSubmit')} />
						</Form>
					</Panel>
				)}
			</div>
			<section className="card partner-figures" aria-labelledby="partner-figures-title">
				<h2 id="partner-figures-title">{t('partners.figuresTitle')}</h2>
				<p className="admin-muted">{t('partners.figuresText')}</p>
				{/* Scrolls sideways on a phone: focusable, so a keyboard scrolls it too (axe: scrollable-region-focusable). */}
				{/* eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex */}
				<div className="admin-table-wrap" tabIndex={0} role="region" aria-labelledby="partner-figures-title">
					<table className="table">
						<thead>
							<tr>
								<th scope="col">{t('partners.day')}</th>
								{partnerFigureKinds.map((kind) => (
									<th key={kind} scope="col" className="table__number">
										{t(`partners.kinds.${kind}`)}
									</th>
								))}
							</tr>
						</thead>
						<tbody>
							{figures.days.map((row) => (
								<tr key={row.day}>
									<th scope="row">{row.label}</th>
									{partnerFigureKinds.map((kind) => (
										<td key={kind} className="table__number">
											{formatNumber(row[kind], language)}
										</td>
									))}
								</tr>
							))}
						</tbody>
						<tfoot>
							<tr>
								<th scope="row">{t('partners.total')}</th>
								{partnerFigureKinds.map((kind) => (
									<td key={kind} className="table__number">
										{formatNumber(figures.totals[kind], language)}
									</td>
								))}
							</tr>
						</tfoot>
					</table>
				</div>
			</section>
		</>
	)
}
