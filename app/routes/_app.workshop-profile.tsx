import { getFormProps, getInputProps, getSelectProps, getTextareaProps, useForm } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { data, type ActionFunctionArgs, type LoaderFunctionArgs } from 'react-router'
import { Form, useActionData, useLoaderData } from 'react-router'
import { useTranslation } from '~/i18n/translation'
import { ButtonLink } from '~/components/button-link'
import { CheckboxGroup, Field, FileField, FormActions, FormAlert, FormSecurity, SelectField, TextareaField } from '~/components/forms'
import { PageHeader } from '~/components/page-header'
import { Panel } from '~/components/panel'
import { UploadedImage } from '~/components/responsive-image'
import { getChoices } from '~/domain/site/reference.server'
import { dayGroups, MAX_WORKSHOP_PHOTOS, WorkshopProfileSchema } from '~/domain/directory/profile'
import { loadWorkshopProfile, saveWorkshopProfile } from '~/domain/directory/profile.server'
import { getFixedT, getLanguage } from '~/i18n/i18n.server'
import { requireWorkshop } from '~/utils/auth.server'
import { validateCsrf } from '~/utils/csrf.server'
import { routeMeta } from '~/utils/meta'
import { readFormUploads, withFormFiles } from '~/uploads/multipart.server'
import { decodeId, encodeId } from '~/utils/public-id'
import { handleDomainError, or404 } from '~/utils/route-helpers.server'
import { redirectWithToast } from '~/utils/toast.server'
import { uploadUrl } from '~/uploads/upload-url'
import { imageSourcesFor } from '~/uploads/access.server'
import { type AdsHandle } from '~/utils/ad-places'

const hhmm = (value: string | null) => (value ? value.slice(0, 5) : '')
const text = (value: string | number | null | undefined) => (value === null || value === undefined ? '' : String(value))

export async function loader({ request }: LoaderFunctionArgs) {
	const { actor } = await requireWorkshop(request)
	const language = await getLanguage(request)
	const [profile, choices] = await Promise.all([
		or404(loadWorkshopProfile(actor.workshopId)),
		getChoices(language, ['services', 'carBrands', 'spareParts', 'paymentMethods', 'cities']),
	])
	const { workshop } = profile
	const images = await imageSourcesFor([workshop.logoUploadId, ...profile.photos.map((photo) => photo.uploadId)])
	const t = getFixedT(language, 'workshop')
	return {
		meta: { title: t('profile.title') },
		choices,
		companyName: workshop.companyName,
		companyId: workshop.companyId,
		publicSlug: encodeId(workshop.id),
		logoUploadId: workshop.logoUploadId,
		logoImage: (workshop.logoUploadId && images.get(workshop.logoUploadId)) || null,
		warrantyDocumentUploadId: workshop.warrantyDocumentUploadId,
		photos: profile.photos.map((photo) => ({ slug: encodeId(photo.id), uploadId: photo.uploadId, image: images.get(photo.uploadId) ?? null })),
		defaults: {
			contactFirstName: workshop.contactFirstName,
			contactLastName: workshop.contactLastName,
			workshopName: workshop.workshopName,
			phone: workshop.phone,
			email: workshop.email,
			billingEmail: text(workshop.billingEmail),
			website: text(workshop.website),
			foundedYear: text(workshop.foundedYear),
			installersCount: text(workshop.installersCount),
			state: workshop.state,
			cityId: text(workshop.cityId),
			streetName: workshop.streetName,
			zipCode: workshop.zipCode,
			marketingText: workshop.marketingText,
			additionalServices: workshop.additionalServices,
			serviceIds: profile.serviceIds,
			carBrandIds: profile.carBrandIds,
			sparePartIds: profile.sparePartIds,
			paymentMethodIds: profile.paymentMethodIds,
			weekdayOpens: hhmm(workshop.weekdayOpens),
			weekdayCloses: hhmm(workshop.weekdayCloses),
			saturdayOpens: hhmm(workshop.saturdayOpens),
			saturdayCloses: hhmm(workshop.saturdayCloses),
			sundayOpens: hhmm(workshop.sundayOpens),
			sundayCloses: hhmm(workshop.sundayCloses),
			warrantyWorkKm: text(workshop.warrantyWorkKm),
			warrantyPartsMonths: text(workshop.warrantyPartsMonths),
			warrantyInfo: workshop.warrantyInfo,
		},
	}
}

export async function action({ request }: ActionFunctionArgs) {
	const { actor, user } = await requireWorkshop(request)
	return withFormFiles(request, async (formData) => {
		await validateCsrf(request, formData)
		const submission = parseWithZod(formData, { schema: WorkshopProfileSchema })
		const uploads = await readFormUploads(formData, user.id, {
			logo: { purpose: 'workshop_logo', max: 1 },
			photos: { purpose: 'workshop_photo', max: MAX_WORKSHOP_PHOTOS },
			warrantyDocument: { purpose: 'warranty_document', max: 1 },
		})
		if (submission.status !== 'success' || !uploads.ok) {
			return data({ result: submission.reply(), fileErrors: uploads.errors, held: await uploads.hold() }, { status: uploads.status })
		}
		const { logo, photos, warrantyDocument } = uploads.files
		try {
			await saveWorkshopProfile(actor.workshopId, user.id, submission.value, {
				logo: logo[0] ?? null,
				removeLogo: formData.get('removeLogo') === 'yes',
				photos,
				removePhotoIds: formData
					.getAll('removePhoto')
					.map((value) => decodeId(String(value)))
					.filter((id): id is string => Boolean(id)),
				warrantyDocument: warrantyDocument[0] ?? null,
				removeWarrantyDocument: formData.get('removeWarrantyDocument') === 'yes',
			})
		} catch (error) {
			return handleDomainError(error, { as: 'form', submission, data: { fileErrors: uploads.errors, held: await uploads.hold() } })
		}
		return redirectWithToast('/workshop-profile', { type: 'success', key: 'workshop:profile.saved' }, { request })
	})
}

export const meta = routeMeta<typeof loader>()

// The workshop's settings show no ads (app/utils/ad-places.ts, decision 0129).
export const handle: AdsHandle = { ads: false }

export default function WorkshopProfilePage() {
	const { t } = useTranslation('workshop')
	const loaderData = useLoaderData<typeof loader>()
	const { choices, defaults, photos } = loaderData
	const actionData = useActionData<typeof action>()
	const [form, fields] = useForm({
		id: 'workshop-profile',
		lastResult: actionData?.result,
		defaultValue: defaults,
		onValidate: ({ formData }) => parseWithZod(formData, { schema: WorkshopProfileSchema }),
		shouldRevalidate: 'onInput',
	})
	const fileErrors = actionData?.fileErrors ?? {}
	const held = actionData?.held
	const listDefault = (value: unknown) => (Array.isArray(value) ? (value as string[]) : typeof value === 'string' ? [value] : [])

	return (
		<>
			<PageHeader
				title={t('profile.title')}
				subtitle={t('profile.subtitle')}
				actions={
					<ButtonLink to={`/workshop-details/${loaderData.publicSlug}`} kind="ghost">{t('profile.seePublic')}</ButtonLink>
				}
			/>
			<Form method="post" encType="multipart/form-data" className="form profile-form" {...getFormProps(form)}>
				<FormSecurity />
				<FormAlert id={form.errorId} errors={form.errors} />

				<Panel id="profile-company" title={t('profile.company')} className="card form">
					<dl className="facts">
						<div>
							<dt>{t('profile.companyName')}</dt>
							<dd>{loaderData.companyName}</dd>
						</div>
						<div>
							<dt>{t('profile.companyId')}</dt>
							<dd>{loaderData.companyId}</dd>
						</div>
					</dl>
					<p className="field__help">{t('profile.customerServiceNote')}</p>
					<div className="form-grid form-grid--two">
						<Field className="field--wide" label={t('profile.workshopName')} required inputProps={getInputProps(fields.workshopName, { type: 'text' })} errors={fields.workshopName.errors} />
						<Field label={t('profile.contactFirstName')} required inputProps={getInputProps(fields.contactFirstName, { type: 'text' })} errors={fields.contactFirstName.errors} />
						<Field label={t('profile.contactLastName')} required inputProps={getInputProps(fields.contactLastName, { type: 'text' })} errors={fields.contactLastName.errors} />
					</div>
				</Panel>

				<Panel id="profile-contact" title={t('profile.contact')} className="card form">
					<div className="form-grid form-grid--two">
						<Field label={t('profile.phone')} required inputProps={{ ...getInputProps(fields.phone, { type: 'tel' }), autoComplete: 'tel' }} errors={fields.phone.errors} />
						<Field label={t('profile.email')} required inputProps={{ ...getInputProps(fields.email, { type: 'email' }), autoComplete: 'email' }} errors={fields.email.errors} />
						<Field label={t('profile.billingEmail')} help={t('profile.billingEmailHelp')} inputProps={getInputProps(fields.billingEmail, { type: 'email' })} errors={fields.billingEmail.errors} />
						<Field label={t('profile.website')} help={t('profile.websiteHelp')} inputProps={{ ...getInputProps(fields.website, { type: 'url' }), placeholder: 'https://' }} errors={fields.website.errors} />
					</div>
					<h3>{t('profile.address')}</h3>
					<div className="form-grid form-grid--two">
						<Field className="field--wide" label={t('profile.streetName')} required inputProps={{ ...getInputProps(fields.streetName, { type: 'text' }), autoComplete: 'street-address' }} errors={fields.streetName.errors} />
						<SelectField label={t('profile.city')} required placeholder={t('profile.chooseCity')} options={choices.cities} selectProps={getSelectProps(fields.cityId)} errors={fields.cityId.errors} />
						<Field label={t('profile.zipCode')} required inputProps={{ ...getInputProps(fields.zipCode, { type: 'text' }), autoComplete: 'postal-code' }} errors={fields.zipCode.errors} />
						<Field className="field--wide" label={t('profile.state')} required help={t('profile.stateHelp')} inputProps={getInputProps(fields.state, { type: 'text' })} errors={fields.state.errors} />
					</div>
				</Panel>

				<Panel id="profile-about" title={t('profile.about')} className="card form">
					<TextareaField label={t('profile.marketingText')} help={t('profile.marketingTextHelp')} textareaProps={{ ...getTextareaProps(fields.marketingText), rows: 6 }} errors={fields.marketingText.errors} />
					<div className="form-grid form-grid--two">
						<Field label={t('profile.foundedYear')} inputProps={{ ...getInputProps(fields.foundedYear, { type: 'number' }), inputMode: 'numeric' }} errors={fields.foundedYear.errors} />
						<Field label={t('profile.installersCount')} inputProps={{ ...getInputProps(fields.installersCount, { type: 'number' }), inputMode: 'numeric', min: 0 }} errors={fields.installersCount.errors} />
					</div>
					<TextareaField label={t('profile.additionalServices')} help={t('profile.additionalServicesHelp')} textareaProps={{ ...getTextareaProps(fields.additionalServices), rows: 3 }} errors={fields.additionalServices.errors} />
				</Panel>

				<Panel id="profile-offer" title={t('profile.whatYouOffer')} className="card form">
					<p className="field__help">{t('profile.whatYouOfferHelp')}</p>
					<CheckboxGroup legend={t('profile.services')} name="serviceIds" required options={choices.services} defaultValue={listDefault(fields.serviceIds.initialValue)} errors={fields.serviceIds.errors} className="checkbox-group--columns" />
					<CheckboxGroup legend={t('profile.carBrands')} name="carBrandIds" required options={choices.carBrands} defaultValue={listDefault(fields.carBrandIds.initialValue)} errors={fields.carBrandIds.errors} className="checkbox-group--columns" />
					<CheckboxGroup legend={t('profile.spareParts')} name="sparePartIds" required options={choices.spareParts} defaultValue={listDefault(fields.sparePartIds.initialValue)} errors={fields.sparePartIds.errors} className="checkbox-group--columns" />
					<CheckboxGroup legend={t('profile.paymentMethods')} name="paymentMethodIds" required options={choices.paymentMethods} defaultValue={listDefault(fields.paymentMethodIds.initialValue)} errors={fields.paymentMethodIds.errors} className="checkbox-group--columns" />
				</Panel>

				<Panel id="profile-hours" title={t('profile.hours')} className="card form">
					<p className="field__help">{t('profile.hoursHelp')}</p>
					<div className="hours-grid">
						{dayGroups.map((group) => {
							const opens = fields[`${group}Opens`]
							const closes = fields[`${group}Closes`]
							return (
								<fieldset key={group} className="fieldset hours-grid__row">
									<legend>{t(`profile.days.${group}`)}</legend>
									<Field label={t('profile.opens')} inputProps={getInputProps(opens, { type: 'time' })} errors={opens.errors} />
									<Field label={t('profile.closes')} inputProps={getInputProps(closes, { type: 'time' })} errors={closes.errors} />
								</fieldset>
							)
						})}
					</div>
				</Panel>

				<Panel id="profile-warranty" title={t('profile.warranty')} className="card form">
					<div className="form-grid form-grid--two">
						<Field label={t('profile.warrantyWorkKm')} inputProps={{ ...getInputProps(fields.warrantyWorkKm, { type: 'number' }), inputMode: 'numeric', min: 0 }} errors={fields.warrantyWorkKm.errors} />
						<Field label={t('profile.warrantyPartsMonths')} inputProps={{ ...getInputProps(fields.warrantyPartsMonths, { type: 'number' }), inputMode: 'numeric', min: 0 }} errors={fields.warrantyPartsMonths.errors} />
					</div>
					<TextareaField label={t('profile.warrantyInfo')} textareaProps={{ ...getTextareaProps(fields.warrantyInfo), rows: 3 }} errors={fields.warrantyInfo.errors} />
					<FileField
						id="profile-warranty-document"
						name="warrantyDocument"
						label={t('profile.warrantyDocument')}
						help={t('profile.pdfHelp')}
						accept="pdf"
						errors={fileErrors.warrantyDocument}
						held={held?.warrantyDocument}
						current={
							loaderData.warrantyDocumentUploadId
								? { href: uploadUrl(loaderData.warrantyDocumentUploadId), label: t('profile.currentDocument'), removeName: 'removeWarrantyDocument', removeLabel: t('profile.removeFile') }
								: null
						}
					/>
				</Panel>

				<Panel id="profile-images" title={t('profile.images')} className="card form">
					<div className="logo-field">
						{loaderData.logoUploadId ? (
							<UploadedImage
								id={loaderData.logoUploadId}
								image={loaderData.logoImage}
								alt={t('profile.currentLogo')}
								sizes="96px"
								width={96}
								height={96}
								loading="eager"
								className="logo-field__image"
							/>
						) : null}
						<FileField
							id="profile-logo"
							name="logo"
							label={t('profile.logo')}
							help={t('profile.imageHelp')}
							accept="images"
							errors={fileErrors.logo}
							held={held?.logo}
							current={loaderData.logoUploadId ? { removeName: 'removeLogo', removeLabel: t('profile.removeLogoLabel') } : null}
						/>
					</div>
					{photos.length ? (
						<fieldset className="fieldset">
							<legend>{t('profile.currentPhotos')}</legend>
							<ul className="photo-strip">
								{photos.map((photo, index) => (
									<li key={photo.slug} className="photo-strip__item">
										<UploadedImage id={photo.uploadId} image={photo.image} alt={t('profile.photoAlt', { number: index + 1 })} sizes="9rem" width={144} height={108} />
										<label className="checkbox">
											<input type="checkbox" name="removePhoto" value={photo.slug} />
											<span>{t('profile.removePhoto')}</span>
										</label>
									</li>
								))}
							</ul>
						</fieldset>
					) : null}
					<FileField
						id="profile-photos"
						name="photos"
						label={t('profile.addPhotos')}
						help={t('profile.photosHelp', { max: MAX_WORKSHOP_PHOTOS })}
						accept="images"
						multiple
						errors={fileErrors.photos}
						held={held?.photos}
					/>
				</Panel>

				<FormActions submit={t('profile.save')} large className="form-actions--sticky" />
			</Form>
		</>
	)
}
