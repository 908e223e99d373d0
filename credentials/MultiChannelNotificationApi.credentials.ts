import type { IAuthenticateGeneric, ICredentialType, Icon, INodeProperties } from 'n8n-workflow';

export class MultiChannelNotificationApi implements ICredentialType {
	name = 'multiChannelNotificationApi';

	displayName = 'Multi-Channel Notification API';

	icon: Icon = {
		light: 'file:multiChannelNotificationApi.svg',
		dark: 'file:multiChannelNotificationApi.dark.svg',
	};

	documentationUrl = 'https://www.npmjs.com/package/n8n-nodes-multichannel-notification#credential';

	properties: INodeProperties[] = [
		{
			displayName: 'API Key',
			name: 'apiKey',
			type: 'string',
			typeOptions: { password: true },
			required: true,
			default: '',
			description: 'The key from the service operator. It is sent as the Authorization header exactly as typed.',
		},
		{
			displayName: 'Base URL',
			name: 'baseUrl',
			type: 'string',
			required: true,
			default: '',
			placeholder: 'https://notification.example.com',
			description:
				'Address of the service, without /v1 (a trailing slash is fine). Must be https:// unless the service runs on this machine.',
		},
	];

	// Spec, Authentication: the header value is the key itself, with no scheme prefix.
	authenticate: IAuthenticateGeneric = {
		type: 'generic',
		properties: {
			headers: {
				Authorization: '={{$credentials.apiKey}}',
			},
		},
	};
}
