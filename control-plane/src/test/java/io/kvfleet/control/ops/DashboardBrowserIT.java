package io.kvfleet.control.ops;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The dashboard in the system's headless Chromium, driven by Selenium, against a running demo
 * fleet: the nodes show, prefill-0's VRAM registration failure shows and opens its diagnosis, a
 * transfer opens its explanation. Screenshots go to {@code target/dashboard-*.png}.
 */
class DashboardBrowserIT {
  private static final Path CHROMIUM = Path.of("/usr/bin/chromium");
  private static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");
  private static final Path SHOTS = Path.of("target");

  @TempDir Path profile;

  @Test
  void anOperatorSeesTheVramFailureItsDiagnosisAndATransfersExplanation() throws Exception {
    assumeTrue(Files.isExecutable(CHROMIUM) && Files.isExecutable(CHROMEDRIVER),
        "SKIPPED: chromium and chromium-driver are not installed (apt-get install chromium chromium-driver);"
            + " .ci/run installs them");
    try (var ops = new OpsFleet(false, 10)) {
      WebDriver browser = browser();
      try {
        var wait = new WebDriverWait(browser, Duration.ofSeconds(60));
        browser.get(ops.dashboardUrl);
        wait.until(ExpectedConditions.presenceOfElementLocated(By.cssSelector(".card.node[data-node='prefill-0']")));
        wait.until(ExpectedConditions.presenceOfElementLocated(By.cssSelector(".card.node[data-node='decode-0']")));
        assertThat(textOf(wait, By.cssSelector(".card.node[data-node='prefill-0']")))
            .contains("ALIVE").contains("prefill").contains("VRAM");
        assertThat(textsOf(wait, By.cssSelector(".card.node[data-node='prefill-0'] .mem.no")))
            .as("VRAM marked as what the node cannot register").contains("VRAM");

        By vramFailure = By.cssSelector("tr.registration.failed[data-node='prefill-0'][data-memory='VRAM']");
        wait.until(ExpectedConditions.elementToBeClickable(vramFailure));
        // A transfer or two so the charts have points before the picture is taken.
        wait.until(d -> d.findElements(By.cssSelector("tr.transfer")).size() >= 3);
        Thread.sleep(4_000);
        shot(browser, "dashboard-overview");
        wait.ignoring(StaleElementReferenceException.class).until(d -> {
          d.findElement(vramFailure).click(); // found and clicked in one step, again if it went stale
          return true;
        });
        wait.until(ExpectedConditions.visibilityOfElementLocated(By.cssSelector("#detail .diagnosis")));
        String diagnosis = textOf(wait, By.id("detail"));
        assertThat(diagnosis).contains("Registration failed: prefill-0/state_data-")
            .contains("could not register STATE VRAM region").contains("What to do:");
        assertThat(textOf(wait, By.cssSelector("#detail .remediation"))).contains("UCX");
        shot(browser, "dashboard-diagnosis");
        browser.findElement(By.id("detail-close")).click();

        By completed = By.xpath("//tr[contains(@class,'transfer')][td[3]='COMPLETED']");
        // The table re-renders as events arrive: find and click the row in one step, again if it went stale.
        String transferId = wait.ignoring(StaleElementReferenceException.class).until(d -> {
          var row = d.findElement(completed);
          String id = row.getDomAttribute("data-transfer");
          row.click();
          return id;
        });
        wait.until(ExpectedConditions.textToBePresentInElementLocated(By.cssSelector("#detail .explanation"), transferId));
        String explanation = textOf(wait, By.id("detail"));
        assertThat(explanation).contains("Explain transfer " + transferId).contains("completed")
            // A plain transfer reads "t-1 requested (by router-0)", a request transfer "r-1 requested for request …
            // (by router-0)": the demo makes both, and the first completed row may be either.
            .containsPattern(java.util.regex.Pattern.quote(transferId) + " requested( for request [^\n]*)? \\(by router-0\\)");
        shot(browser, "dashboard-explanation");
      } finally {
        browser.quit();
      }
    }
  }

  /**
   * The text of what {@code by} finds: the page re-renders its cards and tables as events arrive, so
   * an element can go stale between finding it and reading it; it is then found and read again.
   */
  private static String textOf(WebDriverWait wait, By by) {
    return wait.ignoring(StaleElementReferenceException.class).until(d -> d.findElement(by).getText());
  }

  /** {@link #textOf} for every element {@code by} finds, read in one step. */
  private static List<String> textsOf(WebDriverWait wait, By by) {
    return wait.ignoring(StaleElementReferenceException.class)
        .until(d -> d.findElements(by).stream().map(WebElement::getText).toList());
  }

  private WebDriver browser() {
    var options = new ChromeOptions().setBinary(CHROMIUM.toFile());
    options.addArguments("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync",
        "--disable-dev-shm-usage", "--window-size=1400,1000", "--user-data-dir=" + profile.toAbsolutePath());
    var service = new ChromeDriverService.Builder().usingDriverExecutable(CHROMEDRIVER.toFile()).usingAnyFreePort()
        .build();
    return new ChromeDriver(service, options);
  }

  private static void shot(WebDriver browser, String name) throws Exception {
    Path png = ((TakesScreenshot) browser).getScreenshotAs(OutputType.FILE).toPath();
    Files.createDirectories(SHOTS);
    Files.copy(png, SHOTS.resolve(name + ".png"), StandardCopyOption.REPLACE_EXISTING);
  }
}
