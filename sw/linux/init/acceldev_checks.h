// The host system's Acceldev driver checks (docs/linux-driver.md): loads the
// driver module, checks that it bound to the device and made /dev/acceldev0,
// runs the driver's test programs, one PASS/FAIL line each, and unloads it.
#ifndef AVP_LINUX_ACCELDEV_CHECKS_H
#define AVP_LINUX_ACCELDEV_CHECKS_H

// `pci_dev`: the device's name under /sys/bus/pci/devices ("0000:00:00.0");
// `only`: the one program to run, or NULL for all.
void acceldev_checks(const char* pci_dev, const char* only);

#endif
