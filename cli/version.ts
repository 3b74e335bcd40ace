/** kubecheck's version, as `kubecheck --version` prints it and reports name their tool (SARIF's `tool.driver.version`). */
export const KUBECHECK_VERSION = '0.1.0';
