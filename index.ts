// n8n loads the node and the credential through the "n8n" block of package.json; this entry
// lets the package also be required directly (tests, tools).
export { MultiChannelNotification } from './nodes/MultiChannelNotification/MultiChannelNotification.node';
export { MultiChannelNotificationApi } from './credentials/MultiChannelNotificationApi.credentials';
